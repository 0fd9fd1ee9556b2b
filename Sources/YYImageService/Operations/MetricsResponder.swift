import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /metrics` in Prometheus' text format, on a port of its own.
struct MetricsResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let metrics: ServiceMetrics

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.uri.path == "/metrics" else { return Response(status: .notFound) }
        var fields = HTTPFields()
        fields[.contentType] = "text/plain; version=0.0.4"
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }
}

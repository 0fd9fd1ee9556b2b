import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import YYDispatch

/// The HTTP face of the service: routes a request to the handler, turns the answer into a
/// Hummingbird response, and counts and logs it.
struct ServiceResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let handler: ImageRequestHandler
    let playground: PlaygroundPage?
    let metrics: ServiceMetrics
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let answer = await answer(request)
        let duration = ContinuousClock.now - started
        metrics.recordResponse(status: answer.status, bytes: answer.body.count, duration: duration)
        let metadata: Logger.Metadata = [
            "method": "\(request.method)", "path": "\(request.uri.path.prefix(300))", "status": "\(answer.status)",
            "bytes": "\(answer.body.count)", "ms": "\(Int((duration.inSeconds * 1000).rounded()))",
            "type": "\(answer.header("Content-Type") ?? "-")",
        ]
        logger.log(level: answer.status >= 500 ? .warning : .debug, "request", metadata: metadata)
        var fields = HTTPFields()
        for header in answer.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    private func answer(_ request: Request) async -> ServiceResponse {
        guard request.method == .get else {
            return ServiceResponse(error: ServiceError(status: 405, message: "only GET is served"))
        }
        let path = request.uri.path
        switch path {
        case "/health":
            return handler.health()
        case "/", "/playground":
            guard let playground else { return ServiceResponse(error: .notFound("nothing here: see the URL API")) }
            return playground.page(source: request.uri.queryParameters["src"].map(String.init))
        case "/favicon.ico", "/robots.txt":
            return ServiceResponse(error: .notFound("nothing here"))
        default:
            if path.hasPrefix("/info/") { return await handler.info(path: String(path.dropFirst("/info".count))) }
            return await handler.process(
                path: path, accept: request.headers[.accept], ifNoneMatch: request.headers[HTTPField.Name("If-None-Match")!])
        }
    }
}

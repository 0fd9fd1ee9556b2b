import Foundation
import Hummingbird
import NIOCore

/// JSON responses: keys sorted (so a body is stable), names in snake case as imgproxy writes them.
enum JSONBody {
    /// `value` as a JSON response with `status` and `cacheControl`.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, cacheControl: String) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // Every body here is plain strings and numbers, which always encode.
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: cacheControl],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

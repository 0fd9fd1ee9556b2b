import Foundation

/// A response before it meets the HTTP server: status, header fields, body.
struct ServiceResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Data

    /// The JSON error response for `error`; errors are never cached for long.
    init(error: ServiceError) {
        status = error.status
        headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store")]
        body = error.jsonBody
    }

    init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body.
    static func json(_ object: [String: Any], status: Int = 200, cacheControl: String = "no-cache") -> ServiceResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return ServiceResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", cacheControl)], body: body)
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

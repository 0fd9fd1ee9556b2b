import Foundation

/// Why a request got no image, as the status imgproxy gives it and a message for the JSON body.
///
/// Messages name the problem (an option, a limit, the origin's status) and never carry a file
/// path, a key or an internal error's text that could.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public let status: Int
    /// What was wrong, for the client.
    public let message: String

    /// An error with `status` and `message`.
    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// 400: a URL or an option that cannot be read.
    static func badRequest(_ message: String) -> ServiceError { ServiceError(status: 400, message: message) }
    /// 403: the signature does not match.
    static let forbidden = ServiceError(status: 403, message: "invalid signature")
    /// 404: a source that is not allowed or not there.
    static func notFound(_ message: String) -> ServiceError { ServiceError(status: 404, message: message) }
    /// 422: a source that cannot be decoded or is over a limit.
    static func unprocessable(_ message: String) -> ServiceError { ServiceError(status: 422, message: message) }
    /// 429: the queue is full.
    static let busy = ServiceError(status: 429, message: "too many requests: the processing queue is full")
    /// 502: the origin failed.
    static func badGateway(_ message: String) -> ServiceError { ServiceError(status: 502, message: message) }
    /// 503: shutting down, or processing took too long.
    static func unavailable(_ message: String) -> ServiceError { ServiceError(status: 503, message: message) }
    /// 504: the origin took too long.
    static func gatewayTimeout(_ message: String) -> ServiceError { ServiceError(status: 504, message: message) }

    /// `{"error": message, "status": status}`.
    var jsonBody: Data {
        // JSONSerialization escapes the message; the keys are sorted so the body is stable.
        let object: [String: Any] = ["error": message, "status": status]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// `status: message`.
    public var description: String { "\(status): \(message)" }
}

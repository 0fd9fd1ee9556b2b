import Foundation
public import HTTPTypes
public import Hummingbird

/// Why a request got no image, as the status imgproxy gives it and a message for the JSON body
/// (`{"error": message, "status": code}`); Hummingbird's router writes it, as any
/// `HTTPResponseError`, with `Cache-Control: no-store`.
///
/// Messages are fixed texts written here: they name the problem (an option, a limit, the
/// origin's status) and never carry a file path, a key or an internal error's text that could.
/// What a library or the system said goes to the log, as the error's detail.
public struct ServiceError: HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// What was wrong, for the client.
    public let message: String
    /// What the log gets beside the message (an internal error's text); never sent to a client.
    let detail: String?
    /// Whether the source could not be had (not fetched, or no image): what a fallback image
    /// answers for.
    private(set) var isSourceFailure = false

    /// An error with `status` and `message`.
    public init(status: HTTPResponse.Status, message: String) {
        self.init(status: status, message: message, detail: nil)
    }

    init(status: HTTPResponse.Status, message: String, detail: String?) {
        self.status = status
        self.message = message
        self.detail = detail
    }

    /// This error with `detail` for the log.
    func logging(_ detail: String) -> ServiceError {
        var error = ServiceError(status: status, message: message, detail: detail)
        error.isSourceFailure = isSourceFailure
        return error
    }

    /// This error, marked as the source's failure.
    var ofSource: ServiceError {
        var error = self
        error.isSourceFailure = true
        return error
    }

    /// Errors are equal when a client sees the same: status and message.
    public static func == (lhs: ServiceError, rhs: ServiceError) -> Bool {
        lhs.status == rhs.status && lhs.message == rhs.message
    }

    /// 400: a URL or an option that cannot be read.
    static func badRequest(_ message: String) -> ServiceError { ServiceError(status: .badRequest, message: message) }
    /// 403: the signature does not match.
    static let forbidden = ServiceError(status: .forbidden, message: "invalid signature")
    /// 403: the request's `Authorization` does not carry the service's secret.
    static let invalidSecret = ServiceError(status: .forbidden, message: "invalid secret")
    /// 403: an option the service does not allow in URLs.
    static func forbiddenOption(_ name: String) -> ServiceError { ServiceError(status: .forbidden, message: "forbidden processing option \(name)") }
    /// 404: a source that is not allowed or not there.
    static func notFound(_ message: String) -> ServiceError { ServiceError(status: .notFound, message: message) }
    /// 405: anything but GET.
    static let methodNotAllowed = ServiceError(status: .methodNotAllowed, message: "only GET is served")
    /// 422: a source that cannot be decoded or is over a limit.
    static func unprocessable(_ message: String) -> ServiceError { ServiceError(status: .unprocessableContent, message: message) }
    /// 429: the queue is full.
    static let busy = ServiceError(status: .tooManyRequests, message: "too many requests: the processing queue is full")
    /// 500: a fault of ours; the detail goes to the log only.
    static let internalError = ServiceError(status: .internalServerError, message: "internal error")
    /// 502: the origin failed.
    static func badGateway(_ message: String) -> ServiceError { ServiceError(status: .badGateway, message: message) }
    /// 503: shutting down, or processing took too long.
    static func unavailable(_ message: String) -> ServiceError { ServiceError(status: .serviceUnavailable, message: message) }
    /// 504: the origin took too long.
    static func gatewayTimeout(_ message: String) -> ServiceError { ServiceError(status: .gatewayTimeout, message: message) }

    /// The JSON body.
    private struct Body: Encodable {
        var error: String
        var status: Int
    }

    /// The JSON error response, never cached.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONBody.response(Body(error: message, status: status.code), status: status, cacheControl: "no-store")
    }

    /// `status: message`.
    public var description: String { "\(status.code): \(message)" }
}

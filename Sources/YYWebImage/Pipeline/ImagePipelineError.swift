public import YYImage

/// Why the pipeline gave no image. Every failure of a load is one of these; nothing is thrown
/// untyped.
public enum ImagePipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status that carries no image (404, 500, 204, a 304 nobody
    /// asked for, a 429 or 503 whose one retry failed too).
    case statusCode(Int)
    /// A timeout fired.
    case timedOut(Timeout)
    /// The body is bigger than ``ImagePipeline/Configuration/maximumResponseBytes`` (declared by
    /// Content-Length, or counted while streaming).
    case tooLarge(limit: Int)
    /// The bytes are no image, or an image the decoder refused (a pixel bomb, a truncated or
    /// malformed file). `.decodingFailed(.unknownFormat)` is "not an image".
    case decodingFailed(ImageError)
    /// The server broke HTTP: a compressed body although identity was asked, a body longer than
    /// its Content-Length, an empty body, a redirect without a location.
    case invalidResponse(String)
    /// A redirect the pipeline refuses to follow: too many hops, a loop, HTTPS → HTTP.
    case invalidRedirect(String)
    /// The URL is not an absolute http(s) URL.
    case unsupportedURL(String)
    /// Every waiter cancelled.
    case cancelled
    /// The connection failed (refused, reset, closed early, TLS); the text is the cause.
    case transport(String)
    /// The data loader does not connect to where the URL (or a redirect) leads: an address its
    /// policy forbids, such as a private or loopback one for a service that fetches what its
    /// users name. The text names the rule.
    case refusedAddress(String)

    /// The timeouts a load has.
    public enum Timeout: String, Sendable, Equatable {
        /// Connecting took too long.
        case connect
        /// No bytes arrived for too long while reading.
        case idleRead = "idle read"
        /// The whole request took too long.
        case request
    }

    /// A plain-language account of the error.
    public var description: String {
        switch self {
        case .statusCode(let code): "HTTP status \(code)"
        case .timedOut(let timeout): "\(timeout.rawValue) timeout"
        case .tooLarge(let limit): "response larger than \(limit) bytes"
        case .decodingFailed(.unknownFormat): "not an image"
        case .decodingFailed(let error): "decoding failed: \(error)"
        case .invalidResponse(let detail): "invalid response: \(detail)"
        case .invalidRedirect(let detail): "redirect refused: \(detail)"
        case .unsupportedURL(let url): "unsupported URL: \(url)"
        case .cancelled: "cancelled"
        case .transport(let cause): "transport failure: \(cause)"
        case .refusedAddress(let reason): "address refused: \(reason)"
        }
    }
}

extension ImagePipelineError {
    /// Any error as the pipeline's: itself, `.cancelled` for a cancellation, a transport failure
    /// with its description otherwise.
    init(_ error: any Error) {
        if let error = error as? ImagePipelineError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .transport(String(describing: error))
        }
    }
}

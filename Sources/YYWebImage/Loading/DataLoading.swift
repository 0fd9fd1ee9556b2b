public import Foundation

/// Fetches bytes over HTTP for the pipeline. The default is ``HTTPDataLoader`` (AsyncHTTPClient);
/// tests or apps may bring their own (a URLSession one on Apple platforms, a mock).
///
/// A loader does one request: no redirects (the pipeline follows them, to enforce its rules),
/// no decompression, no caching. It returns once the response head arrived; the body streams.
public protocol DataLoading: Sendable {
    /// Sends `request` and returns the head of the response with its body to stream.
    func load(_ request: DataLoadRequest) async throws(ImagePipelineError) -> DataLoadResponse
}

/// One HTTP GET for a ``DataLoading``.
public struct DataLoadRequest: Sendable {
    /// The absolute http(s) URL.
    public var url: URL
    /// Header fields to send (Accept, Accept-Encoding, validators).
    public var headers: HTTPHeaderFields
    /// When the whole request must be done, body included.
    public var deadline: ContinuousClock.Instant?

    /// A request.
    public init(url: URL, headers: HTTPHeaderFields = [:], deadline: ContinuousClock.Instant? = nil) {
        self.url = url
        self.headers = headers
        self.deadline = deadline
    }
}

/// The head of an HTTP response and its body, to be read at the reader's pace.
public struct DataLoadResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The header fields.
    public var headers: HTTPHeaderFields
    /// The body in chunks; it fails with an ``ImagePipelineError`` (timeout, transport).
    public var body: any AsyncSequence<Data, any Error> & Sendable

    /// A response.
    public init(statusCode: Int, headers: HTTPHeaderFields, body: any AsyncSequence<Data, any Error> & Sendable) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}

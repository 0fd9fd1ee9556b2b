import Foundation

/// An image's original bytes and where they came from: what the data stage gives the decode stage.
struct OriginalData: Sendable {
    var data: Data
    var source: ImageResponse.Source
    var statusCode: Int?
    var headers: HTTPHeaderFields
}

/// What the data stage reports while it downloads.
enum OriginalDataEvent: Sendable {
    /// Bytes of the body so far, and Content-Length when the server sent one.
    case progress(received: Int, expected: Int?)
    /// All bytes so far (sent at most once per preview interval, only when a waiter wants previews).
    case partialData(Data)
}

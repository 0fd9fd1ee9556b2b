import Foundation
import YYImage

/// An image's original bytes and where they came from: what the data stage gives the decode stage.
struct OriginalData: Sendable {
    var data: Data
    var source: ImageResponse.Source
    var statusCode: Int?
    var headers: HTTPHeaderFields
    /// A decoder over `data` with the pipeline's decoder options, when the data stage parsed the
    /// container already (to refuse what is no image before storing it, and to drop a cached
    /// original that is no image): the decode stage then does not parse it again.
    var decoder: ImageDecoder? = nil
}

/// What the data stage reports while it downloads.
enum OriginalDataEvent: Sendable {
    /// Bytes of the body so far, and Content-Length when the server sent one.
    case progress(received: Int, expected: Int?)
    /// All bytes so far (sent at most once per preview interval, only when a waiter wants previews).
    case partialData(Data)
}

/// What a data job's work sees of the requests waiting on it: their priority, whether one wants
/// previews, and where to send progress.
typealias DataJobContext = TaskCoalescer<String, OriginalData, OriginalDataEvent>.Context

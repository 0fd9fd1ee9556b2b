public import Foundation

/// An image's original bytes, as ``ImagePipeline/data(for:)`` gives them.
public struct ImageDataResponse: Sendable {
    /// The bytes as the server sent them.
    public var data: Data
    /// The stage that had them (never ``ImageResponse/Source/memory``: decoded images are not bytes).
    public var source: ImageResponse.Source
    /// Status of the last HTTP response (`nil` from the caches without revalidation).
    public var statusCode: Int?
    /// Headers of the last HTTP response; from the caches without revalidation, the stored
    /// validators (`ETag`, `Last-Modified`) only.
    public var headers: HTTPHeaderFields
}

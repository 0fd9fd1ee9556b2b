public import Foundation
public import YYImage

/// A loaded image and where it came from.
public struct ImageResponse: Sendable {
    /// The decoded (and processed) image.
    public var image: Image
    /// The original bytes, when the request had ``ImageRequest/Options/returnsOriginalData``.
    public var data: Data?
    /// The stage that had it.
    public var source: Source
    /// Status of the last HTTP response (`nil` from the caches without revalidation).
    public var statusCode: Int?
    /// Headers of the last HTTP response; from the disk and shared caches without revalidation,
    /// the stored validators (`ETag`, `Last-Modified`) only; none from the memory cache.
    public var headers: HTTPHeaderFields

    /// The stage an image came from.
    public enum Source: String, Sendable, Equatable, Codable {
        /// The memory cache of decoded images.
        case memory
        /// The disk cache, still fresh.
        case disk
        /// The shared tier (Redis, say), still fresh: another machine downloaded it.
        case sharedTier
        /// Downloaded.
        case network
        /// The disk cache after the server answered 304 Not Modified.
        case revalidated
    }
}

public import Foundation

/// What to load and how: a URL plus the options, processors and priority of one request.
public struct ImageRequest: Sendable {
    /// The image's address (http or https).
    public var url: URL
    /// How urgently it is wanted; settable later on the ``ImageTask``.
    public var priority: ImagePriority
    /// Cache and decoding choices.
    public var options: Options
    /// Applied in order after decoding; the processed image is cached under a key that names them.
    public var processors: [any ImageProcessing]
    /// Overrides the configuration's cache key for this request (for example a URL without its
    /// expiring query token).
    public var cacheKey: String?

    /// A request for `url`.
    public init(
        url: URL, priority: ImagePriority = .normal, options: Options = [],
        processors: [any ImageProcessing] = [], cacheKey: String? = nil
    ) {
        self.url = url
        self.priority = priority
        self.options = options
        self.processors = processors
        self.cacheKey = cacheKey
    }

    /// The choices a request can make (YYWebImageOptions that make sense without UIKit).
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Revalidate with the server even if the stored copy is fresh (YYWebImage's `Refresh`).
        public static let refresh = Options(rawValue: 1 << 0)
        /// Neither read nor write the disk cache.
        public static let ignoreDiskCache = Options(rawValue: 1 << 1)
        /// Neither read nor write the memory cache.
        public static let ignoreMemoryCache = Options(rawValue: 1 << 2)
        /// Decode only the first frame of an animation (`IgnoreAnimatedImage`).
        public static let firstFrameOnly = Options(rawValue: 1 << 3)
        /// Deliver previews of partial data to the task's events (progressive JPEG, interlaced
        /// PNG, GIF frame 0), at most one per ``ImagePipeline/Configuration/previewInterval``.
        public static let progressive = Options(rawValue: 1 << 4)
        /// Keep the original bytes in ``ImageResponse/data``.
        public static let returnsOriginalData = Options(rawValue: 1 << 5)
    }
}

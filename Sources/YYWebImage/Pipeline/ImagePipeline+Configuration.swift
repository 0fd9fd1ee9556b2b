public import Foundation
public import Logging
public import YYCache
import YYDispatch
public import YYImage

extension ImagePipeline {
    /// The stages, limits and policies of a pipeline. Every field has a default; a
    /// configuration made with `Configuration()` uses a memory cache, no disk cache and
    /// ``HTTPDataLoader``.
    public struct Configuration: Sendable {
        /// Fetches bytes (default: ``HTTPDataLoader``).
        public var dataLoader: any DataLoading
        /// Decoded images, cost = decoded bytes (default: a cache limited to 1/4 of the memory
        /// the process may use, at most 512 MB); `nil` for none.
        public var memoryCache: MemoryCache<String, Image>?
        /// Original bytes with their HTTP validators and freshness; `nil` (the default) for none.
        /// Its `costLimit`, when set, is enforced as entries are written.
        public var diskCache: DiskCache?
        /// Original bytes shared by every machine of a cluster (`YYCacheRedis.RedisCacheTier`, say),
        /// read after the disk cache and written with it, so that the cluster downloads each image
        /// once; `nil` (the default) for none. Its failures are logged and make a miss or a skipped
        /// write, never a failed load.
        public var sharedTier: (any SharedCacheTier)?
        /// How long the shared tier keeps an original (default 7 days): longer than its HTTP
        /// freshness, so that a stale copy can still be revalidated with a 304.
        public var sharedTierTimeToLive: Duration = .seconds(7 * 86_400)
        /// Limits and output of the decoder (pixels, frame bytes): they refuse decompression
        /// bombs before allocating.
        public var decoderOptions = ImageDecoder.Options()
        /// The largest body accepted (default 64 MB), checked against Content-Length before the
        /// body is read and again while it streams.
        public var maximumResponseBytes = 64 << 20
        /// How long one download may take in all (default 60 s): every redirect hop, the retry
        /// after a 429 or 503 and its wait, every body byte. The connect and idle-read timeouts
        /// belong to the ``dataLoader``.
        public var requestTimeout: Duration = .seconds(60)
        /// Redirects followed per request (default 5). HTTPS → HTTP is never followed.
        public var maximumRedirects = 5
        /// Downloads at once to one host (default 6).
        public var connectionsPerHost = 6
        /// Downloads at once in all (default 24).
        public var totalConnections = 24
        /// The longest Retry-After honoured for a 429 or 503 (default 30 s); a longer one fails.
        public var maximumRetryDelay: Duration = .seconds(30)
        /// Freshness of a response that says nothing about it (no Cache-Control max-age, Expires
        /// or Last-Modified); default one day.
        public var defaultFreshness: Duration = .seconds(86_400)
        /// How long a URL that failed keeps failing at once without a new download (YYWebImage's
        /// `IgnoreFailedURL`); `nil` (the default) to always try again. When downloads of one
        /// URL overlap, the one that began last decides: its success ends a failure remembered
        /// from an older one, and an older one that fails after it is not remembered.
        public var failedURLMemory: Duration?
        /// At most one progressive preview per this interval (default 0.2 s).
        public var previewInterval: Duration = .milliseconds(200)
        /// The cache key of a URL (default: its absolute string). Use it to drop a query token
        /// that changes while the image does not.
        public var cacheKey: @Sendable (URL) -> String = { $0.absoluteString }
        /// Waits for Retry-After (a test clock makes them instant; a seam for this package's tests).
        package var clock: any Clock<Duration> = ContinuousClock()
        /// The wall-clock time for HTTP freshness (a seam: this package's tests move it).
        package var now: @Sendable () -> Date = { Date() }
        /// Where failures of the caches (which never fail a load) are logged.
        public var logger = Logger(label: "yykit.webimage")

        /// The defaults, with `dataLoader` if given.
        public init(dataLoader: (any DataLoading)? = nil) {
            self.dataLoader = dataLoader ?? HTTPDataLoader()
            let memory = MemoryCache<String, Image>(name: "yykit.webimage")
            memory.costLimit = Self.defaultMemoryCostLimit
            self.memoryCache = memory
        }

        /// A quarter of the memory the process may use, at most 512 MB: the limit of its cgroup
        /// (a container's, a systemd unit's) where it has one. The machine's memory alone would
        /// let a process limited to 256 MB on a large machine cache 512 MB of images and be killed.
        static var defaultMemoryCostLimit: Int {
            defaultMemoryCostLimit(
                memoryLimit: MemoryPressureMonitor.systemReading()?.limit
                    ?? Int64(clamping: ProcessInfo.processInfo.physicalMemory))
        }

        /// The rule, for a process that may use `memoryLimit` bytes.
        static func defaultMemoryCostLimit(memoryLimit: Int64) -> Int {
            Int(clamping: min(max(0, memoryLimit) / 4, 512 << 20))
        }
    }
}

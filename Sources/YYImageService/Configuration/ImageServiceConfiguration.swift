import Foundation
public import Logging
public import YYCache
public import YYImage

/// Everything ``ImageService`` is made with. Every field has a default: a service made with
/// `ImageServiceConfiguration()` listens on 127.0.0.1:8080, accepts unsigned URLs, fetches
/// public http(s) sources and keeps results in memory only.
public struct ImageServiceConfiguration: Sendable {
    /// The address to listen on (default 127.0.0.1).
    public var host = "127.0.0.1"
    /// The port (default 8080; 0 picks a free one, reported by ``ImageService/onListening``).
    public var port = 8080
    /// The URL signature; `nil` (the default) accepts any signature, `insecure` included.
    public var signature: URLSignature?
    /// Where originals and results are kept on disk (`originals/` and `results/` below it);
    /// default `yykit-serve` in the user's cache folder.
    public var cacheDirectory = Cache<Data>.defaultRootDirectory + "/yykit-serve"
    /// A level shared by every replica (`YYCacheRedis.RedisCacheTier`, say), behind disk, for
    /// originals and results alike; with it, identical requests are computed once per cluster.
    public var sharedTier: (any SharedCacheTier)?
    /// Whether results are cached (default true); off, every request is computed.
    public var cachesResults = true
    /// `Cache-Control: max-age` of results, and how long the caches keep them (default one year).
    public var resultTimeToLive: Duration = .seconds(365 * 86_400)
    /// Memory for recent results (default 128 MB).
    public var resultMemoryLimit = 128 << 20
    /// Memory for recent originals (default 16 MB; the disk level behind it answers from the
    /// page cache, so more memory here buys little and shows in the process's size).
    public var originalMemoryLimit = 16 << 20
    /// Source URL prefixes allowed (empty, the default: any http(s) or local source).
    public var allowedSources: [String] = []
    /// Which addresses sources may be fetched from (default: public ones only).
    public var addressPolicy = SourceAddressPolicy()
    /// Resolves source host names (default: the system's resolver).
    public var resolver: any SourceAddressResolver = SystemAddressResolver()
    /// The folder `local:///path` sources are read from; `nil` (the default) refuses them.
    public var localRoot: String?
    /// Whether `GET /` shows the playground page (default false).
    public var playground = false
    /// Sources the playground offers besides the files under ``localRoot``. With a
    /// ``signature``, these and the root's files are the only sources it shows (and signs).
    public var playgroundSources: [String] = []
    /// Requests worked on at once: fetch, decode, process, encode (default: the machine's cores).
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// Requests waiting for a worker before more get 429 (default 64).
    public var queueLimit = 64
    /// The port of the Prometheus metrics (`GET /metrics`); `nil` (the default) serves none.
    public var metricsPort: Int?
    /// Presets by name, each a list of option segments; `default` applies to every request.
    public var presets: [String: [String]] = [:]
    /// Whether AVIF may be chosen from `Accept` when the URL names no format (default true).
    public var negotiatesAVIF = true
    /// Whether WebP may be chosen from `Accept` when the URL names no format (default true).
    public var negotiatesWebP = true
    /// Whether `Sec-CH-DPR`/`DPR` and `Sec-CH-Width`/`Width` set `dpr` and `width` when the URL
    /// does not (default false, as imgproxy's `IMGPROXY_ENABLE_CLIENT_HINTS`); answers then say
    /// `Vary` and `Accept-CH` for them.
    public var enablesClientHints = false
    /// Whether JPEG XL may be chosen from `Accept` when the URL names no format (default false,
    /// as imgproxy's `IMGPROXY_AUTO_JXL`).
    public var negotiatesJPEGXL = false
    /// The order negotiation tries the formats in (default JPEG XL, AVIF, WebP); each is tried
    /// only when its switch is on and the client's `Accept` names it.
    public var preferredFormats: [ImageType] = [.jpegXL, .avif, .webp]
    /// Whether URLs may lower the source and result limits with imgproxy's security options
    /// (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
    /// `max_animation_frame_resolution`, `max_result_dimension`; default false: they are a 403).
    public var allowsSecurityOptions = false
    /// The image the `watermark` option draws; `nil` (the default): the option changes nothing,
    /// as in imgproxy.
    public var watermark: ConfiguredImage?
    /// The watermark's base opacity, 0...1 (default 1), which the option's opacity multiplies.
    public var watermarkOpacity = 1.0
    /// The image served, processed with the request's options, when a source cannot be fetched
    /// or is no image (imgproxy's fallback image); `nil` (the default): the error is served.
    public var fallbackImage: ConfiguredImage?
    /// The status of a fallback image's response (default 200).
    public var fallbackImageStatus = 200
    /// `Cache-Control: max-age` of a fallback image's response; `nil` (the default): the result
    /// time to live.
    public var fallbackImageTimeToLive: Duration?
    /// Whether the options section is only preset names (`/sig/thumb:sharp/plain/…`, imgproxy's
    /// `IMGPROXY_ONLY_PRESETS`; default false).
    public var onlyPresets = false
    /// The option names (as written in URLs: list both `w` and `width` to allow both) a URL may
    /// use; empty (the default) allows every one. Options inside presets are always allowed.
    public var allowedProcessingOptions: [String] = []
    /// A secret every request but `/health` must send as `Authorization: Bearer <secret>`
    /// (imgproxy's `IMGPROXY_SECRET`); `nil` (the default) asks for none.
    public var secret: String?
    /// The origin CORS headers allow (`*` or one origin); `nil` (the default) sends none.
    public var allowOrigin: String?
    /// A prefix put before every source that does not start with it (imgproxy's
    /// `IMGPROXY_BASE_URL`); empty (the default) changes nothing.
    public var baseURL = ""
    /// AVIF's encoder speed, 0 (slowest, smallest) to 10 (default 8, imgproxy's).
    public var avifSpeed = 8
    /// How many times the result's size a shrink-on-load keeps, at least 1: a JPEG or WebP source
    /// is decoded at the smallest power-of-two scale (1/2, 1/4, 1/8) whose longest side is still
    /// this many times the resized image's, then resized with Lanczos 3. 1 is fastest; 2 keeps
    /// the picture closest to a whole decode (Pillow's `thumbnail` recipe). Default 1; the two
    /// measured against thumbor in `Benchmarks/README.md`.
    public var shrinkOnLoadGap = 1.0
    /// The limits on sources, results and time.
    public var limits = Limits()
    /// How long a stopping service waits for requests in flight (default 20 s); then it cancels
    /// them, answers them 503 and stops.
    public var shutdownTimeout: Duration = .seconds(20)
    /// How long a connection may go without a request arriving (default 10 s, imgproxy's
    /// keep-alive and read timeouts): an idle keep-alive connection is closed, and so is one
    /// whose request head does not arrive whole in that time (a slowloris).
    public var idleTimeout: Duration = .seconds(10)
    /// Connections open at once (default 2,048, imgproxy's, or fewer when the process may open
    /// fewer files); further ones wait in the listen backlog until one closes.
    public var maximumConnections = Self.defaultMaximumConnections
    /// Where the service logs.
    public var logger = Logger(label: "yykit.serve")

    /// The limits on sources, results and time, with imgproxy's defaults.
    public struct Limits: Sendable {
        /// Bytes of a source (default 50 MB), counted as they arrive.
        public var sourceBytes = 50_000_000
        /// Pixels of a source, summed over its frames (default 50 million).
        public var sourcePixels = 50_000_000
        /// The longest side of a result (default 8,192).
        public var resultSide = 8192
        /// Pixels of a result, summed over its frames (default 50 million, as for sources).
        public var resultPixels = 50_000_000
        /// Bytes one render is estimated to hold at its peak (default 768 MB): the decoded
        /// source, the result's frames and the encoder's working set, which for AVIF and JPEG XL
        /// is over a hundred bytes a pixel. A request over it gets a 422 before any work.
        public var renderMemory = 768 << 20
        /// Frames of an animated source (default 256).
        public var frames = 256
        /// How long fetching a source may take, redirects included (default 5 s).
        public var downloadTimeout: Duration = .seconds(5)
        /// How long a request may take from the queue to the encoded result (default 10 s); the
        /// work stops when it passes.
        public var processingTimeout: Duration = .seconds(10)

        /// The defaults.
        public init() {}
    }

    /// The defaults.
    public init() {}

    /// The formats negotiation may pick, in the order it tries them.
    var negotiatedFormats: [ImageType] {
        let allowed: [ImageType: Bool] = [.jpegXL: negotiatesJPEGXL, .avif: negotiatesAVIF, .webp: negotiatesWebP]
        return preferredFormats.filter { allowed[$0] == true }
    }
}

import ArgumentParser
import Foundation
import Logging
import YYCache
import YYImage
import YYImageService

/// `yy serve`: the image service (imgproxy's URL API) on this machine.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve processed images over HTTP with imgproxy's URL API.",
        discussion: """
            URLs: /%signature/%options/plain/%percent-encoded-source[@%extension] or \
            /%signature/%options/%base64url-source[.%extension]; sources are http(s):// URLs or local:///path under --root. \
            Every option can also be set as YY_SERVE_<NAME> in the environment (YY_SERVE_PORT=9000, \
            YY_SERVE_ALLOW_LOOPBACK_SOURCES=1; repeatable options take comma-separated values); flags win. \
            Logs the address it listens on; SIGTERM or SIGINT stop it after the requests in flight (exit 0).
            Environment variables: \(ServeEnvironment.variableNames.joined(separator: " ")).
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("A signing key in hex; repeat with --salt for each pair (rotation).", valueName: "HEX"))
    var key: [String] = []

    @Option(help: ArgumentHelp("The salt of the --key at the same position, in hex.", valueName: "HEX"))
    var salt: [String] = []

    @Option(name: .customLong("signature-size"), help: "Bytes of the HMAC a signature carries (1...32).")
    var signatureSize = 32

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Where originals and results are kept.", valueName: "DIR"))
    var cacheDir: String?

    @OptionGroup var redisOptions: RedisTierOptions

    @Flag(name: .customLong("no-result-cache"), help: "Compute every result (originals are still cached).")
    var noResultCache = false

    @Option(
        name: .customLong("allowed-source"),
        help: ArgumentHelp(
            "A source to allow, matched by scheme, host, port and a leading path on / boundaries (repeatable; none: any).",
            valueName: "URL-PREFIX"))
    var allowedSource: [String] = []

    @Flag(name: .customLong("allow-loopback-sources"), help: "Allow sources on loopback addresses (127/8, ::1).")
    var allowLoopbackSources = false

    @Flag(
        name: .customLong("allow-security-options"),
        help:
            "Let URLs lower the source and result limits (imgproxy's max_src_resolution, max_src_file_size, max_animation_frames, max_animation_frame_resolution, max_result_dimension)."
    )
    var allowSecurityOptions = false

    @Flag(name: .customLong("allow-private-sources"), help: "Allow sources on private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7).")
    var allowPrivateSources = false

    @Option(
        name: .customLong("deny-source-network"), help: ArgumentHelp("A network refused whatever else allows it (repeatable).", valueName: "CIDR"))
    var denySourceNetwork: [String] = []

    @Option(help: ArgumentHelp("The folder local:///path sources are read from.", valueName: "DIR"))
    var root: String?

    @Flag(
        help: """
            Serve a page at / that shows transformations of a source with their URLs. With --key, it signs only \
            files under --root and the --playground-source sources, never a source from the query.
            """)
    var playground = false

    @Option(
        name: .customLong("playground-source"),
        help: ArgumentHelp(
            "A source the playground offers (repeatable; with --key, the only ones it signs besides --root's files).", valueName: "URL"))
    var playgroundSource: [String] = []

    @Option(help: "Requests worked on at once (default: the number of cores).")
    var workers: Int?

    @Option(help: "Requests waiting for a worker before more get 429.")
    var queue = 64

    @Option(name: .customLong("metrics-port"), help: "Serve Prometheus metrics at /metrics on this port.")
    var metricsPort: Int?

    @Option(
        name: .customLong("preset"),
        help: ArgumentHelp("A preset as NAME=OPTION/OPTION… (repeatable; 'default' applies to every request).", valueName: "NAME=OPTIONS"))
    var preset: [String] = []

    @Option(name: .customLong("max-source-bytes"), help: "The largest source, in bytes.")
    var maxSourceBytes = 50_000_000

    @Option(name: .customLong("max-source-pixels"), help: "The most pixels of a source, summed over its frames.")
    var maxSourcePixels = 50_000_000

    @Option(name: .customLong("max-result-side"), help: "The longest side of a result, in pixels.")
    var maxResultSide = 8192

    @Option(name: .customLong("max-result-pixels"), help: "The most pixels of a result, summed over its frames.")
    var maxResultPixels = 50_000_000

    @Option(
        name: .customLong("max-render-memory"),
        help: "Megabytes one render is estimated to hold at its peak (the encoder's working set included); more gets 422.")
    var maxRenderMemory = 768

    @Option(name: .customLong("max-frames"), help: "The most frames of an animated source.")
    var maxFrames = 256

    @Option(name: .customLong("download-timeout"), help: "Seconds a source may take to download.")
    var downloadTimeout: Double = 5

    @Option(name: .customLong("processing-timeout"), help: "Seconds a request may take from the queue to the result (then 503).")
    var processingTimeout: Double = 10

    @Option(
        name: .customLong("shutdown-timeout"),
        help: "Seconds SIGTERM waits for the requests in flight; then they are cancelled and answered 503.")
    var shutdownTimeout: Double = 20

    @Option(
        name: .customLong("idle-timeout"),
        help: "Seconds a connection may go without a request arriving whole (idle keep-alive, slow request heads).")
    var idleTimeout: Double = 10

    @Option(
        name: .customLong("max-connections"),
        help: "Connections open at once; more wait in the listen backlog (default 2048, or fewer when fewer files may be open).")
    var maxConnections: Int?

    @Option(help: "Seconds results may be cached (Cache-Control max-age, and the caches' time to live).")
    var ttl: Double = 365 * 86_400

    @Flag(name: .customLong("no-avif"), help: "Never choose AVIF from Accept.")
    var noAVIF = false

    @Flag(name: .customLong("no-webp"), help: "Never choose WebP from Accept.")
    var noWebP = false

    @Option(name: .customLong("watermark-path"), help: ArgumentHelp("The image the watermark option draws, read at start.", valueName: "FILE"))
    var watermarkPath: String?

    @Option(
        name: .customLong("watermark-url"),
        help: ArgumentHelp("The image the watermark option draws, fetched and cached like a source.", valueName: "URL"))
    var watermarkURL: String?

    @Option(name: .customLong("watermark-data"), help: ArgumentHelp("The image the watermark option draws, in base64.", valueName: "BASE64"))
    var watermarkData: String?

    @Option(name: .customLong("watermark-opacity"), help: "The watermark's base opacity, 0...1, which the option's multiplies.")
    var watermarkOpacity = 1.0

    @Option(
        name: .customLong("fallback-image-path"),
        help: ArgumentHelp("The image served, with the request's options, when a source cannot be had; read at start.", valueName: "FILE"))
    var fallbackImagePath: String?

    @Option(name: .customLong("fallback-image-url"), help: ArgumentHelp("The fallback image, fetched like a source.", valueName: "URL"))
    var fallbackImageURL: String?

    @Option(name: .customLong("fallback-image-data"), help: ArgumentHelp("The fallback image, in base64.", valueName: "BASE64"))
    var fallbackImageData: String?

    @Option(name: .customLong("fallback-image-http-code"), help: "The status of a fallback image's response (default 200).")
    var fallbackImageHTTPCode = 200

    @Option(name: .customLong("fallback-image-ttl"), help: "Seconds a fallback image may be cached (default: --ttl).")
    var fallbackImageTTL: Double?

    @Flag(name: .customLong("only-presets"), help: "Read the options section as preset names only (NAME:NAME).")
    var onlyPresets = false

    @Option(
        name: .customLong("allowed-processing-option"),
        help: ArgumentHelp(
            "An option name URLs may use, as written (repeatable; none: all). Presets' own options are always allowed.", valueName: "NAME"))
    var allowedProcessingOption: [String] = []

    @Option(help: ArgumentHelp("A secret every request but /health must send as Authorization: Bearer SECRET.", valueName: "SECRET"))
    var secret: String?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp("The origin CORS headers allow (* or one origin).", valueName: "ORIGIN"))
    var allowOrigin: String?

    @Option(name: .customLong("base-url"), help: ArgumentHelp("A prefix put before every source that does not start with it.", valueName: "URL"))
    var baseURL = ""

    @Flag(name: .customLong("enable-jxl"), help: "Choose JPEG XL from Accept too.")
    var enableJXL = false

    @Option(
        name: .customLong("preferred-formats"),
        help: ArgumentHelp("The order Accept negotiation tries formats in (default jxl,avif,webp).", valueName: "LIST"))
    var preferredFormats = "jxl,avif,webp"

    @Flag(name: .customLong("enable-client-hints"), help: "Take dpr and width from Sec-CH-DPR/DPR and Sec-CH-Width/Width when the URL has none.")
    var enableClientHints = false

    @Option(name: .customLong("avif-speed"), help: "AVIF encoder speed, 0 (small, slow) to 10 (fast).")
    var avifSpeed = 8

    @Option(
        name: .customLong("shrink-on-load-gap"),
        help:
            "How many times the result's size a JPEG or WebP source is decoded at, at least (power-of-two scales; 1 fastest, 2 closest to a whole decode)."
    )
    var shrinkOnLoadGap = 1.0

    @Option(name: .customLong("log-format"), help: "text, or json (one JSON object per line).")
    var logFormat = "text"

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func validate() throws {
        if key.count != salt.count { throw ValidationError("give one --salt for each --key") }
        if !(1...32).contains(signatureSize) { throw ValidationError("--signature-size must be 1...32") }
        if !(0...65_535).contains(port) { throw ValidationError("--port must be 0...65535") }
        if let metricsPort, !(0...65_535).contains(metricsPort) { throw ValidationError("--metrics-port must be 0...65535") }
        if let workers, workers < 1 { throw ValidationError("--workers must be at least 1") }
        if queue < 0 { throw ValidationError("--queue must be 0 or more") }
        for (name, value) in [
            ("--max-source-bytes", maxSourceBytes), ("--max-source-pixels", maxSourcePixels), ("--max-result-side", maxResultSide),
            ("--max-result-pixels", maxResultPixels), ("--max-render-memory", maxRenderMemory),
            ("--max-frames", maxFrames), ("--max-connections", maxConnections ?? 1),
        ]
        where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
        for (name, value) in [
            ("--download-timeout", downloadTimeout), ("--processing-timeout", processingTimeout), ("--shutdown-timeout", shutdownTimeout),
            ("--idle-timeout", idleTimeout), ("--ttl", ttl),
        ]
        where !(value.isFinite && value > 0) {
            throw ValidationError("\(name) must be a positive number of seconds")
        }
        for network in denySourceNetwork where !SourceAddressPolicy.isValidNetwork(network) {
            throw ValidationError("--deny-source-network: '\(network)' is not ADDRESS/PREFIX")
        }
        if !["text", "json"].contains(logFormat) { throw ValidationError("--log-format must be text or json") }
        if Logger.Level(rawValue: logLevel) == nil { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
        if !(0...10).contains(avifSpeed) { throw ValidationError("--avif-speed must be 0...10") }
        for kind in ["watermark", "fallback-image"] {
            let given =
                kind == "watermark" ? [watermarkPath, watermarkURL, watermarkData] : [fallbackImagePath, fallbackImageURL, fallbackImageData]
            if given.compactMap({ $0 }).count > 1 { throw ValidationError("give one of --\(kind)-path, --\(kind)-url and --\(kind)-data") }
        }
        if !(200...599).contains(fallbackImageHTTPCode) { throw ValidationError("--fallback-image-http-code must be 200...599") }
        if let fallbackImageTTL, !(fallbackImageTTL.isFinite && fallbackImageTTL > 0) {
            throw ValidationError("--fallback-image-ttl must be a positive number of seconds")
        }
        if secret?.isEmpty == true { throw ValidationError("--secret must not be empty") }
        if preferredFormatList == nil { throw ValidationError("--preferred-formats lists jxl, avif and webp, comma-separated") }
        if !(watermarkOpacity.isFinite && (0...1).contains(watermarkOpacity)) { throw ValidationError("--watermark-opacity must be 0...1") }
        if !(shrinkOnLoadGap.isFinite && (1...8).contains(shrinkOnLoadGap)) { throw ValidationError("--shrink-on-load-gap must be 1...8") }
    }

    func run() async throws {
        MallocArenas.limitForServer(environment: ProcessInfo.processInfo.environment)
        let logger = bootstrapLogging()
        let service: ImageService
        do {
            service = try ImageService(configuration: try makeConfiguration(logger: logger))
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure.failure("cannot start: \(error)")
        }
        do {
            try await service.runUntilSignalled()
        } catch {
            throw ToolFailure.failure("the server stopped: \(error)")
        }
    }

    /// The configuration the flags describe.
    func makeConfiguration(logger: Logger) throws(ToolFailure) -> ImageServiceConfiguration {
        var configuration = ImageServiceConfiguration()
        configuration.host = host
        configuration.port = port
        if !key.isEmpty {
            var pairs: [URLSignature.KeyPair] = []
            for (key, salt) in zip(key, salt) {
                guard let pair = URLSignature.KeyPair(hexKey: key, hexSalt: salt) else {
                    throw .usage("--key and --salt must be non-empty hexadecimal")
                }
                pairs.append(pair)
            }
            configuration.signature = URLSignature(keyPairs: pairs, size: signatureSize)
        }
        configuration.cacheDirectory = cacheDir ?? Cache<Data>.defaultRootDirectory + "/yykit-serve"
        configuration.sharedTier = try redisOptions.openRedisTier()
        configuration.cachesResults = !noResultCache
        configuration.resultTimeToLive = .commandLineSeconds(ttl, atMost: 100 * 365 * 86_400)
        configuration.allowedSources = allowedSource
        configuration.addressPolicy = SourceAddressPolicy(
            allowsLoopback: allowLoopbackSources, allowsPrivate: allowPrivateSources, deniedNetworks: denySourceNetwork)
        configuration.localRoot = root
        configuration.playground = playground
        configuration.playgroundSources = playgroundSource
        if let workers { configuration.workers = workers }
        configuration.queueLimit = queue
        configuration.metricsPort = metricsPort
        configuration.presets = try presets()
        configuration.negotiatesAVIF = !noAVIF
        configuration.allowsSecurityOptions = allowSecurityOptions
        configuration.negotiatesWebP = !noWebP
        configuration.negotiatesJPEGXL = enableJXL
        configuration.preferredFormats = preferredFormatList ?? configuration.preferredFormats
        configuration.enablesClientHints = enableClientHints
        configuration.avifSpeed = avifSpeed
        configuration.watermark = try image("--watermark", path: watermarkPath, url: watermarkURL, base64: watermarkData)
        configuration.watermarkOpacity = watermarkOpacity
        configuration.fallbackImage = try image("--fallback-image", path: fallbackImagePath, url: fallbackImageURL, base64: fallbackImageData)
        configuration.fallbackImageStatus = fallbackImageHTTPCode
        configuration.fallbackImageTimeToLive = fallbackImageTTL.map { .commandLineSeconds($0, atMost: 100 * 365 * 86_400) }
        configuration.onlyPresets = onlyPresets
        configuration.allowedProcessingOptions = allowedProcessingOption
        configuration.secret = secret
        configuration.allowOrigin = allowOrigin
        configuration.baseURL = baseURL
        configuration.shrinkOnLoadGap = shrinkOnLoadGap
        configuration.limits.sourceBytes = maxSourceBytes
        configuration.limits.sourcePixels = maxSourcePixels
        configuration.limits.resultSide = maxResultSide
        configuration.limits.resultPixels = maxResultPixels
        configuration.limits.renderMemory = maxRenderMemory.multipliedReportingOverflow(by: 1 << 20).overflow ? .max : maxRenderMemory << 20
        configuration.limits.frames = maxFrames
        configuration.limits.downloadTimeout = .commandLineSeconds(downloadTimeout, atMost: 86_400)
        configuration.limits.processingTimeout = .commandLineSeconds(processingTimeout, atMost: 86_400)
        configuration.shutdownTimeout = .commandLineSeconds(shutdownTimeout, atMost: 86_400)
        configuration.idleTimeout = .commandLineSeconds(idleTimeout, atMost: 86_400)
        if let maxConnections { configuration.maximumConnections = maxConnections }
        configuration.logger = logger
        return configuration
    }

    /// `--preferred-formats` read: each of jxl, avif and webp at most once; `nil` when it lists another.
    private var preferredFormatList: [ImageType]? {
        let names = preferredFormats.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let formats = names.compactMap { ["jxl": ImageType.jpegXL, "avif": .avif, "webp": .webp][$0] }
        return formats.count == names.count && Set(formats).count == formats.count ? formats : nil
    }

    /// The image a `flag`-path, -url or -data option names: a file read now, base64 decoded now,
    /// or a URL.
    private func image(_ flag: String, path: String?, url: String?, base64: String?) throws(ToolFailure) -> ConfiguredImage? {
        if let url { return .url(url) }
        if let base64 {
            guard let data = Data(base64Encoded: base64), !data.isEmpty else { throw .usage("\(flag)-data is not base64") }
            return .data(data)
        }
        guard let path else { return nil }
        // The file passes the source byte limit, as a fetched image would.
        let data = try StandardStreams.read(path, atMost: maxSourceBytes)
        guard data.count <= maxSourceBytes else { throw .failure("\(flag)-path: over the source limit of \(maxSourceBytes) bytes") }
        return .data(data)
    }

    /// `NAME=OPTION/OPTION…` as the configuration's presets.
    private func presets() throws(ToolFailure) -> [String: [String]] {
        var presets: [String: [String]] = [:]
        for text in preset {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw .usage("--preset: '\(text)' is not NAME=OPTIONS")
            }
            presets[String(text[..<equals])] = text[text.index(after: equals)...].split(separator: "/").map(String.init)
        }
        return presets
    }

    /// swift-log set up once for the process: text or JSON lines on standard error.
    private func bootstrapLogging() -> Logger {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let json = logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = json ? JSONLinesLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "yykit.serve")
        logger.logLevel = level
        return logger
    }
}

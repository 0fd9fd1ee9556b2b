import Foundation
import Hummingbird
import Logging
import NIOCore
public import ServiceLifecycle
import YYCache
import YYDispatch
import YYWebImage

/// An image service with imgproxy's URL API on YYKit's pipeline, processing and caches:
/// `/%signature/%options/plain/%source[@%extension]` or `/%signature/%options/%base64-source[.%extension]`.
///
/// ```swift
/// var configuration = ImageServiceConfiguration()
/// configuration.signature = URLSignature(keyPairs: [URLSignature.KeyPair(hexKey: key, hexSalt: salt)!])
/// let service = try ImageService(configuration: configuration)
/// try await service.runUntilSignalled()     // SIGTERM or SIGINT: finish what is in flight, return
/// ```
///
/// It is a `Service` of swift-service-lifecycle: run it in a `ServiceGroup` of your own, and a
/// graceful shutdown stops it from accepting connections and waits for the requests in flight.
public final class ImageService: Service {
    /// What the service was made with.
    public let configuration: ImageServiceConfiguration
    let handler: ImageRequestHandler
    let metrics = ServiceMetrics()
    private let onListening: @Sendable (_ port: Int) -> Void

    /// A service with `configuration`; `onListening` is told the port once the server listens
    /// (the port chosen when the configuration's is 0).
    ///
    /// - Throws: ``UnreadableAllowedSource`` for an allowed source that is no URL, a
    ///   `DiskCacheError` when the cache folder cannot be opened, or a `DispatchQueuePoolError`
    ///   for an impossible worker count.
    public init(configuration: ImageServiceConfiguration, onListening: @escaping @Sendable (_ port: Int) -> Void = { _ in }) throws {
        self.configuration = configuration
        self.onListening = onListening
        let limits = configuration.limits
        let allowList = try SourceAllowList(prefixes: configuration.allowedSources)
        var pipelineConfiguration = ImagePipeline.Configuration(
            dataLoader: GuardedHTTPLoader(
                policy: configuration.addressPolicy, allowList: allowList, resolver: configuration.resolver,
                connectTimeout: limits.downloadTimeout, maximumBytes: limits.sourceBytes, userAgent: "yy-serve"))
        pipelineConfiguration.memoryCache = nil
        pipelineConfiguration.diskCache = try DiskCache(path: configuration.cacheDirectory + "/originals", logger: configuration.logger)
        pipelineConfiguration.sharedTier = configuration.sharedTier
        pipelineConfiguration.maximumResponseBytes = limits.sourceBytes
        pipelineConfiguration.requestTimeout = limits.downloadTimeout
        pipelineConfiguration.maximumRedirects = 10
        pipelineConfiguration.connectionsPerHost = 16
        pipelineConfiguration.totalConnections = 64
        pipelineConfiguration.decoderOptions.maxPixelCount = limits.sourcePixels
        pipelineConfiguration.logger = configuration.logger
        let recent = MemoryCache<String, SourceFetcher.Fetched>(name: "yykit.serve.originals")
        recent.costLimit = configuration.originalMemoryLimit
        let fetcher = SourceFetcher(
            allowList: allowList, localRoot: configuration.localRoot,
            pipeline: ImagePipeline(configuration: pipelineConfiguration), recent: recent, maximumBytes: limits.sourceBytes)
        var resultCache: Cache<Data>?
        if configuration.cachesResults {
            let cache = try Cache<Data>(
                path: configuration.cacheDirectory + "/results", sharedTier: configuration.sharedTier, logger: configuration.logger)
            cache.memoryCache.costLimit = configuration.resultMemoryLimit
            resultCache = cache
        }
        let workers = max(1, configuration.workers)
        handler = ImageRequestHandler(
            configuration: configuration,
            parser: OptionParser(
                presets: configuration.presets, maxResultSide: limits.resultSide, allowsSecurityOptions: configuration.allowsSecurityOptions,
                watermarkIdentity: configuration.watermark?.identity, allowedOptions: Set(configuration.allowedProcessingOptions)),
            fetcher: fetcher,
            renderer: ImageRenderer(
                limits: .init(
                    sourcePixels: limits.sourcePixels, frames: limits.frames, resultSide: limits.resultSide,
                    budget: RenderBudget(resultPixels: limits.resultPixels, memoryBytes: limits.renderMemory)),
                shrinkOnLoadGap: max(1, configuration.shrinkOnLoadGap), avifSpeed: configuration.avifSpeed,
                watermarkOpacity: min(max(configuration.watermarkOpacity, 0), 1)),
            results: ResultCache(
                cache: resultCache, timeToLive: configuration.resultTimeToLive, fillLockTimeToLive: limits.processingTimeout + .seconds(1)),
            admission: AdmissionQueue(workers: workers, queueLimit: configuration.queueLimit),
            renderQueues: try DispatchQueuePool(
                name: "yykit.serve.render", queueCount: min(workers, DispatchQueuePool.queueCountRange.upperBound)),
            deadlines: DeadlineWatch(),
            metrics: metrics,
            fallbackIdentity: configuration.fallbackImage?.identity)
    }

    /// Requests waiting for a worker now.
    var queuedRequests: Int { handler.admission.load.waiting }

    /// Serves until a graceful shutdown (of the `ServiceGroup` it runs in) or cancellation.
    public func run() async throws {
        let logger = configuration.logger
        let host = configuration.host
        let onListening = self.onListening
        // The metrics listen on a port of their own, a service of the main application.
        var services: [any Service] = []
        if let metricsPort = configuration.metricsPort {
            services.append(
                Application(
                    responder: MetricsResponder(metrics: metrics),
                    configuration: .init(address: .hostname(host, port: metricsPort), serverName: "yy-serve-metrics"),
                    onServerRunning: { channel in
                        logger.info("metrics on http://\(host):\(channel.localAddress?.port ?? 0)/metrics")
                    },
                    logger: logger))
        }
        // Idle and half-sent connections are closed, and no more than the maximum are open: a
        // slowloris cannot hold the file descriptors.
        let application = Application(
            router: makeRouter(),
            server: .http1(configuration: .init(idleTimeout: .nanoseconds(configuration.idleTimeout.saturatingNanoseconds))),
            configuration: .init(
                address: .hostname(host, port: configuration.port), serverName: "yy-serve",
                availableConnectionsDelegate: .maximum(configuration.maximumConnections, logger: logger)),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("yy serve listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)", metadata: ["port": "\(port)"])
                onListening(port)
            },
            logger: logger)
        if configuration.signature == nil {
            logger.warning(
                "URL signatures are OFF: anyone who can reach this service can make it fetch and process any allowed source. Give --key and --salt.")
        }
        let handler = self.handler
        let shutdownTimeout = configuration.shutdownTimeout
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await application.run()
                return true
            }
            // Once a graceful shutdown begins, no new work; at the shutdown timeout, what is still
            // at work is cancelled and answered (503), so that the server can close.
            group.addTask {
                try await gracefulShutdown()
                handler.stopping.withLock { $0 = true }
                logger.info("shutting down: no new work; waiting for the requests in flight")
                try await Task.sleep(for: shutdownTimeout)
                logger.warning("shutdown timeout: cancelling the requests still in flight")
                handler.inFlight.cancelAll()
                return false
            }
            while let applicationEnded = try await group.next() {
                if applicationEnded { break }
            }
            group.cancelAll()
        }
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting connections, lets the requests in
    /// flight finish (at most ``ImageServiceConfiguration/shutdownTimeout``, after which they are
    /// cancelled and answered 503) and returns.
    public func runUntilSignalled() async throws {
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: self)], gracefulShutdownSignals: [.sigterm, .sigint], logger: configuration.logger)
        // The service cancels its own requests at the timeout; the group's cancellation, a little
        // later, is for a service that cannot stop.
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownTimeout + .seconds(3)
        try await ServiceGroup(configuration: groupConfiguration).run()
    }
}

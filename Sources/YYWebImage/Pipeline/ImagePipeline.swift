public import Foundation
import Logging
import YYCache
import YYDispatch
public import YYImage

/// Loads images: memory cache → disk cache → network → decode → processors, with every stage
/// shared by identical requests (YYWebImageManager, rebuilt in the shape of Nuke's pipeline).
///
/// ```swift
/// let pipeline = ImagePipeline(configuration: .init())
/// let response = try await pipeline.image(for: URL(string: "https://example.com/cat.png")!)
/// print(response.image.pixelWidth, response.source)   // 640 network
/// ```
///
/// - Identical requests in flight share one download, one disk read and one decode; a stage is
///   cancelled only when every request waiting on it was cancelled, and runs at the highest
///   priority among them.
/// - The disk cache keeps original bytes with their HTTP validators and freshness: a fresh
///   entry is used as is, a stale one is revalidated (`If-None-Match`, `If-Modified-Since`) and a
///   304 refreshes it.
/// - Decoding runs on a queue of the shared `DispatchQueuePool`, never on the caller's thread.
public final class ImagePipeline: Sendable {
    /// The stages, limits and policies this pipeline was made with.
    public let configuration: Configuration

    let images = TaskCoalescer<String, LoadedImage, ImageTask.Event>()
    let originals = TaskCoalescer<String, OriginalData, OriginalDataEvent>()
    let downloads: ConcurrencyLimiter
    /// The whole-request timeouts of the downloads in flight.
    let deadlines = DeadlineWatch()
    let failedURLs = Locked(FailedURLTable())
    /// The originals being stored, so that an older copy from the shared tier is not stored after them.
    let originalWrites = WriteOverlapTracker<String>()
    /// The image jobs under way, so that an older one's image does not replace a newer one's in memory.
    let memoryStores = StartOrder()
    /// The data jobs under way when failures are remembered, so that an older one's failure does
    /// not outlast a newer one's success, nor its success clear a newer one's failure.
    let dataOutcomes = StartOrder()
    /// The data jobs under way, so that an older one's original does not replace a newer one's
    /// on disk or in the shared tier.
    let originalStores = StartOrder()
    let counters = Locked(Statistics())

    /// A pipeline with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.downloads = ConcurrencyLimiter(perGroupLimit: configuration.connectionsPerHost, totalLimit: configuration.totalConnections)
    }

    /// The image at `url`.
    public func image(for url: URL) async throws(ImagePipelineError) -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// The image `request` asks for. Cancelling the calling task cancels the request.
    public func image(for request: ImageRequest) async throws(ImagePipelineError) -> ImageResponse {
        try await load(request, priority: PrioritySignal(request.priority), wantsPreviews: false, onEvent: nil)
    }

    /// A task for `request`: progress, previews, priority changes and cancellation.
    public func imageTask(for request: ImageRequest) -> ImageTask {
        ImageTask(request: request, pipeline: self)
    }

    /// The decoded image for `request` if the memory cache has it.
    public func cachedImage(for request: ImageRequest) -> Image? {
        configuration.memoryCache?.value(forKey: RequestKeys(request, configuration).image)
    }

    /// What the stages have done since the pipeline was made.
    public var statistics: Statistics { counters.withLock { $0 } }

    // MARK: Stage 1: memory, then the shared image job

    func load(
        _ request: ImageRequest, priority: PrioritySignal, wantsPreviews: Bool,
        onEvent: (@Sendable (ImageTask.Event) -> Void)?
    ) async throws(ImagePipelineError) -> ImageResponse {
        try validate(request.url)
        let keys = RequestKeys(request, configuration)
        let options = request.options
        if !options.contains(.ignoreMemoryCache), !options.contains(.refresh),
            let image = configuration.memoryCache?.value(forKey: keys.image)
        {
            counters.withLock { $0.memoryHits += 1 }
            return ImageResponse(image: image, data: nil, source: .memory, statusCode: nil, headers: [:])
        }
        try checkFailedURL(keys.data)
        let waiter = TaskCoalescer<String, LoadedImage, ImageTask.Event>.Waiter(
            priority: priority, wantsPartialResults: { wantsPreviews }, onEvent: onEvent)
        let loaded = try await images.value(for: keys.imageJob, waiter: waiter) { context throws(ImagePipelineError) in
            try await self.loadImage(request, keys: keys, context: context)
        }
        return ImageResponse(
            image: loaded.image, data: options.contains(.returnsOriginalData) ? loaded.original.data : nil,
            source: loaded.original.source, statusCode: loaded.original.statusCode, headers: loaded.original.headers)
    }

    /// Runs the data stage alone (disk, network, disk write), for the prefetcher's disk destination.
    func loadOriginalData(_ request: ImageRequest, priority: PrioritySignal) async throws(ImagePipelineError) {
        try validate(request.url)
        let keys = RequestKeys(request, configuration)
        try checkFailedURL(keys.data)
        _ = try await originals.value(for: keys.dataJob, waiter: .init(priority: priority), work: originalDataWork(request, keys: keys))
    }

    private func originalDataWork(_ request: ImageRequest, keys: RequestKeys) -> TaskCoalescer<String, OriginalData, OriginalDataEvent>.Work {
        { context throws(ImagePipelineError) in
            let outcome = self.configuration.failedURLMemory == nil ? nil : self.dataOutcomes.begin(keys.data)
            defer { outcome.map(self.dataOutcomes.end) }
            do throws(ImagePipelineError) {
                let original = try await self.loadOriginal(request, keys: keys, context: context)
                if let outcome { self.forgetFailure(of: outcome) }
                return original
            } catch {
                if let outcome { self.rememberFailure(error, of: outcome) }
                throw error
            }
        }
    }

    private func validate(_ url: URL) throws(ImagePipelineError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .unsupportedURL(url.absoluteString)
        }
    }

    private func loadImage(
        _ request: ImageRequest, keys: RequestKeys,
        context: TaskCoalescer<String, LoadedImage, ImageTask.Event>.Context
    ) async throws(ImagePipelineError) -> LoadedImage {
        let ticket = memoryStores.begin(keys.image)
        defer { memoryStores.end(ticket) }
        let decoderOptions = {
            var options = configuration.decoderOptions
            options.maxPixelSize = request.processors.first?.decodingMaxPixelSize
            return options
        }()
        let previews = PreviewMaker(options: decoderOptions)
        let waiter = TaskCoalescer<String, OriginalData, OriginalDataEvent>.Waiter(
            priority: context.priority,
            wantsPartialResults: { context.wantsPartialResults },
            onEvent: { event in
                switch event {
                case .progress(let received, let expected):
                    context.send(.progress(received: received, expected: expected))
                case .partialData(let data):
                    guard context.wantsPartialResults, let preview = previews.preview(of: data) else { return }
                    self.counters.withLock { $0.previews += 1 }
                    context.send(.preview(preview))
                }
            })
        let original = try await originals.value(for: keys.dataJob, waiter: waiter, work: originalDataWork(request, keys: keys))
        try Task.checkCancellation(or: .cancelled)
        counters.withLock { $0.decodes += 1 }
        let firstFrameOnly = request.options.contains(.firstFrameOnly)
        let processors = request.processors
        // The data stage's decoder fits only when no processor asked to decode smaller.
        let parsed = decoderOptions.maxPixelSize == configuration.decoderOptions.maxPixelSize ? original.decoder : nil
        let image = try await DispatchQueuePool.shared(for: .userInitiated).run { () throws(ImagePipelineError) -> Image in
            do throws(ImageError) {
                var image =
                    if let decoder = parsed {
                        try Image(decoder: decoder)
                    } else {
                        try Image(data: original.data, options: decoderOptions)
                    }
                if firstFrameOnly, image.frameCount > 1 { image = Image(bitmap: try image.frame(at: 0), type: image.type, scale: image.scale) }
                for processor in processors { image = try processor.process(image) }
                return image
            } catch {
                throw .decodingFailed(error)
            }
        }
        if !request.options.contains(.ignoreMemoryCache), let memoryCache = configuration.memoryCache {
            // The decoded first frame, plus the bytes an animation keeps to decode the others.
            let cost = image.bytesPerFrame + (image.frameCount > 1 ? original.data.count : 0)
            memoryStores.applyIfLatest(ticket) { memoryCache.setValue(image, forKey: keys.image, cost: cost) }
        }
        return LoadedImage(image: image, original: original)
    }

    // MARK: Failed URLs

    private func checkFailedURL(_ key: String) throws(ImagePipelineError) {
        guard configuration.failedURLMemory != nil else { return }
        let now = ContinuousClock.now
        if let remembered = failedURLs.withLock({ $0.failure(forKey: key, now: now) }) { throw remembered }
    }

    /// Remembers the failure of the data job of `outcome`, unless a job of its key that began
    /// later has already succeeded or failed.
    private func rememberFailure(_ error: ImagePipelineError, of outcome: StartOrder.Ticket) {
        guard let memory = configuration.failedURLMemory, error != .cancelled else { return }
        let now = ContinuousClock.now
        dataOutcomes.applyIfLatest(outcome) {
            failedURLs.withLock { $0.remember(error, forKey: outcome.key, until: now + memory, now: now) }
        }
    }

    /// Forgets a failure remembered by a data job of the key of `outcome` that began before it:
    /// the URL works again.
    private func forgetFailure(of outcome: StartOrder.Ticket) {
        dataOutcomes.applyIfLatest(outcome) { failedURLs.withLock { $0.forget(outcome.key) } }
    }
}

/// A decoded image with the original bytes it came from.
struct LoadedImage: Sendable {
    var image: Image
    var original: OriginalData
}

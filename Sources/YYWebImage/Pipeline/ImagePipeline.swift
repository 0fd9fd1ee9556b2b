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

    /// The image jobs: decode and process, shared by identical requests.
    let images = TaskCoalescer<String, LoadedImage, ImageTask.Event>()
    /// The data jobs: cached or downloaded originals, shared by the requests of the same bytes.
    let originals = TaskCoalescer<String, OriginalData, OriginalDataEvent>()
    let counters = Locked(Statistics())
    // The stages, in the order a request meets them after the memory cache.
    let decodeStage: DecodeStage
    let dataStage: OriginalDataStage
    let originalStore: OriginalStore
    let network: DownloadStage
    let failedURLs: FailedURLMemory

    /// A pipeline with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let counters = self.counters
        network = DownloadStage(
            configuration: configuration, counters: counters,
            downloads: ConcurrencyLimiter(perGroupLimit: configuration.connectionsPerHost, totalLimit: configuration.totalConnections),
            deadlines: DeadlineWatch())
        originalStore = OriginalStore(configuration: configuration, counters: counters)
        failedURLs = FailedURLMemory(duration: configuration.failedURLMemory)
        dataStage = OriginalDataStage(
            configuration: configuration, counters: counters, store: originalStore, network: network, failures: failedURLs)
        decodeStage = DecodeStage(configuration: configuration, counters: counters, originals: originals, data: dataStage)
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

    // MARK: The memory cache, then the stages

    /// The memory cache, then the image job of `request` (``DecodeStage``, which waits on the
    /// data job: ``OriginalDataStage``, ``OriginalStore``, ``DownloadStage``).
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
        try failedURLs.check(keys.data)
        let waiter = TaskCoalescer<String, LoadedImage, ImageTask.Event>.Waiter(
            priority: priority, wantsPartialResults: { wantsPreviews }, onEvent: onEvent)
        let loaded = try await images.value(for: keys.imageJob, waiter: waiter) { context throws(ImagePipelineError) in
            try await self.decodeStage.load(request, keys: keys, context: context)
        }
        return ImageResponse(
            image: loaded.image, data: options.contains(.returnsOriginalData) ? loaded.original.data : nil,
            source: loaded.original.source, statusCode: loaded.original.statusCode, headers: loaded.original.headers)
    }

    /// The original bytes of `request`, without decoding them: from the disk cache or the shared
    /// tier while fresh, else downloaded (revalidating what the caches have) and stored there.
    /// Identical requests in flight share one download. The bytes are checked to be an image
    /// within ``Configuration/decoderOptions``' limits before they are stored or returned.
    public func data(for request: ImageRequest) async throws(ImagePipelineError) -> ImageDataResponse {
        try validate(request.url)
        let keys = RequestKeys(request, configuration)
        try failedURLs.check(keys.data)
        let original = try await originals.value(
            for: keys.dataJob, waiter: .init(priority: PrioritySignal(request.priority)), work: dataStage.work(request, keys: keys))
        return ImageDataResponse(data: original.data, source: original.source, statusCode: original.statusCode, headers: original.headers)
    }

    /// Runs the data stage alone (disk, network, disk write), for the prefetcher's disk destination.
    func loadOriginalData(_ request: ImageRequest, priority: PrioritySignal) async throws(ImagePipelineError) {
        try validate(request.url)
        let keys = RequestKeys(request, configuration)
        try failedURLs.check(keys.data)
        _ = try await originals.value(for: keys.dataJob, waiter: .init(priority: priority), work: dataStage.work(request, keys: keys))
    }

    /// Refuses what is no http(s) URL with a host.
    private func validate(_ url: URL) throws(ImagePipelineError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .unsupportedURL(url.absoluteString)
        }
    }
}

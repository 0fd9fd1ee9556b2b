/// The keys one request is cached and coalesced under.
struct RequestKeys: Sendable {
    /// The original bytes: the disk cache key (the configuration's `cacheKey` of the URL, or the
    /// request's own).
    let data: String
    /// The decoded, processed image: the memory cache key (the data key alone for the image as
    /// it is).
    let image: String
    /// The shared download and disk read: requests that differ in how they treat the caches
    /// must not share one.
    let dataJob: String
    /// The shared decode.
    let imageJob: String

    init(_ request: ImageRequest, _ configuration: ImagePipeline.Configuration) {
        data = request.cacheKey ?? configuration.cacheKey(request.url)
        // Variants follow a NUL, which no URL's text holds, so that no URL's key (one whose
        // fragment reads like a processor, `a.png#thumbnail(50)`) equals a processed image's.
        var image = data
        if request.options.contains(.firstFrameOnly) { image += "\u{0}first-frame" }
        for processor in request.processors { image += "\u{0}" + processor.identifier }
        self.image = image
        let cacheFlags = request.options.intersection([.refresh, .ignoreDiskCache]).rawValue
        // The URL too: two URLs that share a cache key may still need two downloads.
        dataJob = "\(cacheFlags) \(request.url.absoluteString) \(data)"
        let memoryFlag = request.options.contains(.ignoreMemoryCache) ? 1 : 0
        imageJob = "\(memoryFlag) \(dataJob) \(image)"
    }
}

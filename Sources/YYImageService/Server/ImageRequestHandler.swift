import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import YYDispatch
import YYImage
import YYWebImage

/// Answers the service's requests — a processed image, `/info`, `/health` — each as a short
/// sequence of named steps, in the order imgproxy's request handler takes them.
struct ImageRequestHandler: Sendable {
    let configuration: ImageServiceConfiguration
    let parser: OptionParser
    let fetcher: SourceFetcher
    let renderer: ImageRenderer
    let results: ResultCache
    let admission: AdmissionQueue
    let renderQueues: DispatchQueuePool
    /// Cancels a request's work when its processing timeout passes: one watcher task for all.
    let deadlines: DeadlineWatch
    /// The requests at work, for a shutdown that runs out of time to cancel.
    let inFlight = InFlightWork()
    let metrics: ServiceMetrics
    /// The fallback image's name in result keys (its URL, or a digest of its bytes made once).
    let fallbackIdentity: String?
    /// Set once a graceful shutdown begins: requests that reach the service after it (on a
    /// connection kept alive) get a 503 while those in flight finish.
    let stopping = Locked(false)

    /// What a processing request asks.
    struct ImageRequest: Sendable {
        /// `/%signature/%options/%source`, as received.
        var path: String
        var accept: String?
        var ifNoneMatch: String?
        var ifModifiedSince: String?
        /// What the client hints say, when the service reads them.
        var hints: ClientHints?
    }

    /// `GET /%signature/%options/%source`: the processed image.
    func execute(_ request: ImageRequest) async throws(ServiceError) -> Response {
        // 1. A service that is shutting down takes no new work.
        try refuseWhenStopping()
        // 2. The URL taken apart, its signature checked, its options read.
        let (url, options) = try parse(request.path, hints: request.hints ?? ClientHints())
        // `raw`: the source as fetched (through the same address guard and byte limit), neither
        // decoded nor cached.
        if options.raw { return try await rawResponse(url.source, options: options) }
        // 3. The output format: named by the options or the URL's extension, else the best of
        //    several (`best`) or negotiated from Accept. It is part of the result's key, so it is
        //    chosen before the source is seen.
        // The option wins over the extension, as in imgproxy.
        let best = options.bestFormat || (options.format == nil && url.asksBestFormat)
        var named = best ? nil : options.format
        if !best, named == nil { named = try url.extensionFormat() }
        let choice =
            best
            ? OutputFormat.bestChoice(accept: request.accept, preferred: configuration.negotiatedFormats)
            : OutputFormat.choice(named: named, accept: request.accept, preferred: configuration.negotiatedFormats)
        // 4. The result's key: the source, the normalised options and the format choice.
        let key = ResultCache.key(source: url.source, options: options, choice: choice)
        // 5. The result from a cache level, or computed (once, however many ask at once) within
        //    the processing timeout.
        let deadline = ContinuousClock.now + configuration.limits.processingTimeout
        let lookup: ResultCache.Lookup
        var fallback = false
        do {
            lookup = try await results.result(forKey: key) { () async throws(ServiceError) -> ImageRenderer.Output in
                try await compute(source: .url(url.source), options: options, choice: choice, deadline: deadline, verifying: options.hashsum)
            }
        } catch  where error.isSourceFailure && (options.fallbackImageURL != nil || configuration.fallbackImage != nil) {
            // 5'. A source that cannot be had: the fallback image (the URL's, else the
            //     service's), with the same options.
            lookup = try await fallbackResult(options: options, choice: choice, deadline: deadline, failure: error)
            fallback = true
        }
        metrics.record(lookup.level)
        // 6. The image, or 304 when the client has it.
        let disposition = ContentDisposition.value(
            source: url.source, filename: options.filename, type: lookup.result.type, attachment: options.returnAttachment)
        var varies = choice.dependsOnAccept ? ["Accept"] : []
        if request.hints != nil { varies.append(ClientHints.headerNames) }
        return imageResponse(lookup.result, for: request, disposition: disposition, varies: varies, isFallback: fallback)
    }

    /// `GET /info/%signature/%options/%source`: what the source is and what its metadata and
    /// picture hold, fetched and read by a worker within the processing timeout like any other
    /// request.
    func info(path: String) async throws(ServiceError) -> Response {
        try refuseWhenStopping()
        let (url, _) = try parse(path)
        let maxPixels = configuration.limits.sourcePixels
        let info = try await sourceWithWorker(url.source) { data async throws(ServiceError) -> SourceInfo in
            // Its first frame is decoded (small) on a render thread, like any render.
            try await renderQueues.run { () throws(ServiceError) in try SourceInfo(describing: data, maxPixels: maxPixels) }
        }
        return SourceInfo.response(info)
    }

    /// `GET /health`: a 4×4 image encoded and decoded again, as a check that the codecs work.
    func health() throws(ServiceError) -> Response {
        do throws(ImageError) {
            let png = try ImageEncoder.encode(Bitmap(width: 4, height: 4), as: .png)
            let decoder = try ImageDecoder(data: png)
            if decoder.canvasWidth == 4, try decoder.frame(at: 0).height == 4 {
                return JSONBody.response(["status": "ok"], cacheControl: "no-cache")
            }
        } catch {
            throw ServiceError.internalError.logging("health: \(error)")
        }
        throw ServiceError.internalError.logging("health: a 4x4 image did not come back")
    }

    // MARK: Steps

    private func refuseWhenStopping() throws(ServiceError) {
        if stopping.withLock({ $0 }) { throw .unavailable("the service is shutting down") }
    }

    /// The URL taken apart, its signature checked, its options read, the base URL put before
    /// its source.
    private func parse(_ path: String, hints: ClientHints = ClientHints()) throws(ServiceError) -> (ProcessingURL, ProcessingOptions) {
        let (given, signedPath) = try ProcessingURL.signature(of: path)
        if let signature = configuration.signature, !signature.isValid(given, for: signedPath) {
            throw .forbidden
        }
        var url = try ProcessingURL(signature: given, signedPath: signedPath, presetsOnly: configuration.onlyPresets)
        if !url.source.hasPrefix(configuration.baseURL) { url.source = configuration.baseURL + url.source }
        return (url, try parser.parse(url.optionSegments, hints: hints))
    }

    /// The fallback image rendered with the request's options (kept in the result caches under
    /// a key of its own), the source's `failure` logged.
    private func fallbackResult(
        options: ProcessingOptions, choice: OutputFormat.Choice, deadline: ContinuousClock.Instant, failure: ServiceError
    ) async throws(ServiceError) -> ResultCache.Lookup {
        let image: ConfiguredImage, identity: String
        if let url = options.fallbackImageURL {
            (image, identity) = (.url(url), url)
        } else if let configured = configuration.fallbackImage, let fallbackIdentity {
            (image, identity) = (configured, fallbackIdentity)
        } else {
            throw failure
        }
        configuration.logger.info("serving the fallback image", metadata: ["status": "\(failure.status.code)", "error": "\(failure.message)"])
        let key = ResultCache.key(source: "fallback:" + identity, options: options, choice: choice)
        return try await results.result(forKey: key) { () async throws(ServiceError) -> ImageRenderer.Output in
            try await compute(source: image, options: options, choice: choice, deadline: deadline)
        }
    }

    /// A result computed before `deadline`: a worker, the source (checked against `hashsum`),
    /// the render.
    private func compute(
        source: ConfiguredImage, options: ProcessingOptions, choice: OutputFormat.Choice, deadline: ContinuousClock.Instant,
        verifying hashsum: Hashsum? = nil
    ) async throws(ServiceError) -> ImageRenderer.Output {
        try await withinDeadline(deadline) { () async throws(ServiceError) -> ImageRenderer.Output in
            // a. A worker (429 when every worker is busy and the queue is full).
            try await admit()
            defer { admission.leave() }
            // b. The source's bytes.
            let downloading = ContinuousClock.now
            let fetched: SourceFetcher.Fetched
            do throws(ServiceError) {
                fetched = try await self.fetched(source)
            } catch {
                throw error.ofSource
            }
            let data = fetched.data
            metrics.record(.download, .now - downloading)
            if let limit = options.security.sourceBytes, data.count > limit {
                throw .unprocessable("the source has \(data.count) bytes, over the limit of \(limit)")
            }
            if let hashsum, !hashsum.matches(data) {
                throw .unprocessable("the source's \(hashsum.algorithm.rawValue) hashsum does not match")
            }
            let watermark = try await watermarkBytes(for: options)
            // c. The render, on a render thread; it checks the deadline and this task's
            //    cancellation between steps and frames.
            let renderer = self.renderer
            let isAlone = admission.load == (running: 1, waiting: 0)
            let cancellation = CancellationFlag()
            let rendered = await withTaskCancellationHandler { () async -> Result<ImageRenderer.Output, ServiceError> in
                do throws(ServiceError) {
                    return .success(
                        try await renderQueues.run { () throws(ServiceError) in
                            try renderer.render(
                                data, watermark: watermark, options: options, choice: choice, isAlone: isAlone, deadline: deadline,
                                cancellation: cancellation)
                        })
                } catch {
                    return .failure(error)
                }
            } onCancel: {
                cancellation.cancel()
            }
            var output = try rendered.get()
            output.lastModified = fetched.lastModified
            metrics.record(output)
            return output
        }
    }

    /// The bytes of a source or of a configured image: held, or fetched (and cached) as a source.
    private func fetched(_ image: ConfiguredImage) async throws(ServiceError) -> SourceFetcher.Fetched {
        switch image {
        case .data(let data): SourceFetcher.Fetched(data: data)
        case .url(let url): try await fetcher.fetch(url)
        }
    }

    /// The watermark image's bytes, when the options draw it.
    private func watermarkBytes(for options: ProcessingOptions) async throws(ServiceError) -> Data? {
        guard options.watermark != nil else { return nil }
        if let url = options.watermarkURL { return try await fetcher.data(for: url) }
        guard let image = configuration.watermark else { return nil }
        return try await fetched(image).data
    }

    /// The source's bytes as they are, typed by what they start with. Unlike imgproxy's, which
    /// streams them, ours holds them whole, so a raw request takes a worker like any other: the
    /// queue bounds how many sources are held at once.
    private func rawResponse(_ source: String, options: ProcessingOptions) async throws(ServiceError) -> Response {
        let data = try await sourceWithWorker(source)
        let type = ImageType(sniffing: data)
        // Bytes that are no image are never rendered by a browser as anything else.
        var headers: HTTPFields = [.cacheControl: cacheControl, .xContentTypeOptions: "nosniff"]
        headers[.contentType] = type.map(OutputFormat.mediaType) ?? "application/octet-stream"
        // An SVG opened as a document runs its scripts: the policy forbids them.
        if type == .svg { headers[.contentSecurityPolicy] = SVGSanitizer.contentSecurityPolicy }
        if let type {
            headers[.contentDisposition] = ContentDisposition.value(
                source: source, filename: options.filename, type: type, attachment: options.returnAttachment)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A source's bytes fetched by a worker within the processing timeout and, with `use`, what
    /// `use` makes of them while the worker is held (`/info`'s description; `raw` takes the bytes).
    private func sourceWithWorker<T: Sendable>(
        _ source: String, then use: @escaping @Sendable (Data) async throws(ServiceError) -> T = { $0 }
    ) async throws(ServiceError) -> T {
        let deadline = ContinuousClock.now + configuration.limits.processingTimeout
        return try await withinDeadline(deadline) { () async throws(ServiceError) -> T in
            try await admit()
            defer { admission.leave() }
            return try await use(try await fetcher.data(for: source))
        }
    }

    /// Results and raw sources are cached for the result time to live.
    private var cacheControl: String { "public, max-age=\(configuration.resultTimeToLive.components.seconds)" }

    /// Waits for a worker, counted in the queue gauge while it waits.
    private func admit() async throws(ServiceError) {
        let queued = ContinuousClock.now
        metrics.queued.increment()
        defer { metrics.queued.decrement() }
        try await admission.enter()
        metrics.record(.queue, .now - queued)
    }

    /// `body`, cancelled once `deadline` passes, when a shutdown runs out of time (503 both) or
    /// when the client goes away.
    private func withinDeadline<T: Sendable>(
        _ deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async throws(ServiceError) -> T
    ) async throws(ServiceError) -> T {
        let deadlines = self.deadlines
        let ((result, expired), shutDown) = await inFlight.run { await deadlines.run(until: deadline, body) }
        do {
            return try result.get()
        } catch {
            if shutDown { throw .unavailable("the service is shutting down") }
            if expired { throw .unavailable("processing took longer than the processing timeout") }
            throw error as? ServiceError ?? .unavailable("the request was cancelled")
        }
    }

    /// 200 with the image, or 304 when the client has it, with `Vary` naming the request headers
    /// the answer depends on; a fallback image with its own status
    /// and time to live, and a `Fallback-Image: 1` header that says what it is.
    private func imageResponse(
        _ result: StoredResult, for request: ImageRequest, disposition: String, varies: [String], isFallback: Bool
    ) -> Response {
        var headers: HTTPFields = [.cacheControl: cacheControl, .eTag: result.etag]
        if let lastModified = result.lastModified { headers[.lastModified] = HTTPDate.format(lastModified) }
        if !varies.isEmpty { headers[.vary] = varies.joined(separator: ", ") }
        // With client hints read, the browser is asked to send them.
        if configuration.enablesClientHints { headers[.acceptCH] = ClientHints.headerNames }
        if isFallback {
            let timeToLive = configuration.fallbackImageTimeToLive ?? configuration.resultTimeToLive
            headers[.cacheControl] = "public, max-age=\(timeToLive.components.seconds)"
            headers[.fallbackImage] = "1"
        }
        if Self.isNotModified(result, ifNoneMatch: request.ifNoneMatch, ifModifiedSince: request.ifModifiedSince) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = OutputFormat.mediaType(result.type)
        if result.type == .svg { headers[.contentSecurityPolicy] = SVGSanitizer.contentSecurityPolicy }
        headers[.contentDisposition] = disposition
        let status = isFallback ? HTTPResponse.Status(code: configuration.fallbackImageStatus) : .ok
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: result.image)))
    }

    /// Whether an `If-None-Match` list names `etag` (or is `*`); weak tags match too.
    /// Whether the client's copy is current (RFC 9110 §13.2.2): `If-None-Match` names the
    /// result's tag, or, without it, `If-Modified-Since` is no earlier than the source's time.
    static func isNotModified(_ result: StoredResult, ifNoneMatch: String?, ifModifiedSince: String?) -> Bool {
        if let ifNoneMatch { return matches(ifNoneMatch, etag: result.etag) }
        guard let since = ifModifiedSince.flatMap(HTTPDate.parse), let lastModified = result.lastModified else { return false }
        return lastModified <= since
    }

    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}

extension HTTPField.Name {
    /// Says that the image is the service's fallback, not the source's (imgproxy#487).
    static let fallbackImage = Self("Fallback-Image")!
    /// The client hints a response asks the browser to send.
    static let acceptCH = Self("Accept-CH")!
}

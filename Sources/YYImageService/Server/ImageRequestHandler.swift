import Foundation
import Logging
import YYDispatch
import YYImage

/// Answers the service's requests — processing, `/info`, `/health` — as ``ServiceResponse``s,
/// apart from the HTTP server so that it reads as the steps it takes.
struct ImageRequestHandler: Sendable {
    let configuration: ImageServiceConfiguration
    let parser: OptionParser
    let fetcher: SourceFetcher
    let renderer: ImageRenderer
    let results: ResultCache
    let admission: AdmissionQueue
    let renderQueues: DispatchQueuePool
    let metrics: ServiceMetrics
    /// Set once a graceful shutdown begins: requests that reach the service after it (on a
    /// connection kept alive) get a 503 while those in flight finish.
    let stopping = Locked(false)

    /// `GET /%signature/%options/%source`: the processed image.
    func process(path: String, accept: String?, ifNoneMatch: String?) async -> ServiceResponse {
        if stopping.withLock({ $0 }) { return ServiceResponse(error: .unavailable("the service is shutting down")) }
        do throws(ServiceError) {
            let (url, options) = try parse(path)
            var named = options.format
            if named == nil { named = try url.extensionFormat() }
            let choice = OutputFormat.choice(
                named: named, accept: accept,
                negotiatesAVIF: configuration.negotiatesAVIF, negotiatesWebP: configuration.negotiatesWebP)
            let key = ResultCache.key(source: url.source, options: options, choice: choice)
            let lookup = try await result(forKey: key, source: url.source, options: options, choice: choice)
            metrics.record(lookup.level)
            return imageResponse(lookup, dependsOnAccept: choice.dependsOnAccept, ifNoneMatch: ifNoneMatch)
        } catch {
            return ServiceResponse(error: error)
        }
    }

    /// `GET /info/%signature/%options/%source`: the source's type, size, frames and durations,
    /// fetched by a worker like any other request.
    func info(path: String) async -> ServiceResponse {
        do {
            let (url, _) = try parse(path)
            let limit = configuration.limits.sourcePixels
            return try await admission.run {
                try Self.describe(try await fetcher.data(for: url.source), maxPixels: limit)
            }
        } catch let error as ServiceError {
            return ServiceResponse(error: error)
        } catch {
            return ServiceResponse(error: .unavailable("the request was cancelled"))
        }
    }

    /// `GET /health`: a 4×4 image encoded and decoded again, as a check that the codecs work.
    func health() -> ServiceResponse {
        do throws(ImageError) {
            let png = try ImageEncoder.encode(Bitmap(width: 4, height: 4), as: .png)
            let decoder = try ImageDecoder(data: png)
            guard decoder.canvasWidth == 4, try decoder.frame(at: 0).height == 4 else {
                return .json(["status": "failing", "error": "a 4x4 image did not come back"], status: 500)
            }
            return .json(["status": "ok"])
        } catch {
            return .json(["status": "failing", "error": "the codecs failed a 4x4 image"], status: 500)
        }
    }

    // MARK: Steps

    /// The URL taken apart, its signature checked, its options read.
    private func parse(_ path: String) throws(ServiceError) -> (ProcessingURL, ProcessingOptions) {
        let url = try ProcessingURL(path: path)
        if let signature = configuration.signature, !signature.isValid(url.signature, for: url.signedPath) {
            throw .forbidden
        }
        return (url, try parser.parse(url.optionSegments))
    }

    /// The result from the caches, or computed: a worker, the source, the render, all within the
    /// processing timeout.
    private func result(forKey key: String, source: String, options: ProcessingOptions, choice: OutputFormat.Choice)
        async throws(ServiceError) -> ResultCache.Lookup
    {
        do {
            return try await results.result(forKey: key) {
                try await withProcessingTimeout { cancellation in
                    try await compute(source: source, options: options, choice: choice, cancellation: cancellation)
                }
            }
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw .unavailable("the request was cancelled")
        } catch {
            configuration.logger.error("result cache failed", metadata: ["error": "\(error)"])
            throw ServiceError(status: 500, message: "internal error")
        }
    }

    private func compute(source: String, options: ProcessingOptions, choice: OutputFormat.Choice, cancellation: RenderCancellation)
        async throws -> ImageRenderer.Output
    {
        let queued = ContinuousClock.now
        metrics.queued.increment()
        // Left by admission or by refusal (429): the gauge goes down exactly once either way.
        var waiting = true
        defer { if waiting { metrics.queued.decrement() } }
        return try await admission.run {
            waiting = false
            metrics.queued.decrement()
            metrics.record(.queue, .now - queued)
            let downloading = ContinuousClock.now
            let data = try await fetcher.data(for: source)
            metrics.record(.download, .now - downloading)
            try Task.checkCancellation()
            let renderer = self.renderer
            let isAlone = admission.load == (running: 1, waiting: 0)
            let output = try await renderQueues.run { () throws(ServiceError) in
                try renderer.render(data, options: options, choice: choice, isAlone: isAlone, cancellation: cancellation)
            }
            metrics.record(.decode, output.decoding)
            metrics.record(.process, output.processing)
            metrics.record(.encode, output.encoding)
            return output
        }
    }

    /// `body`, stopped once the processing timeout passes: its task is cancelled (which stops a
    /// download) and its render told to stop at its next check; the request gets a 503.
    private func withProcessingTimeout<T: Sendable>(_ body: @escaping @Sendable (RenderCancellation) async throws -> T) async throws -> T {
        let cancellation = RenderCancellation()
        let timeout = configuration.limits.processingTimeout
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body(cancellation) }
            group.addTask {
                try await Task.sleep(for: timeout)
                cancellation.cancel()
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw ServiceError.unavailable("processing took longer than the processing timeout")
            }
            return value
        }
    }

    /// 200 with the image, or 304 when the client has it.
    private func imageResponse(_ lookup: ResultCache.Lookup, dependsOnAccept: Bool, ifNoneMatch: String?) -> ServiceResponse {
        let etag = lookup.result.etag
        var headers: [(name: String, value: String)] = [
            ("Cache-Control", "public, max-age=\(configuration.resultTimeToLive.components.seconds)"), ("ETag", etag),
        ]
        if dependsOnAccept { headers.append(("Vary", "Accept")) }
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag: etag) {
            return ServiceResponse(status: 304, headers: headers, body: Data())
        }
        headers.insert(("Content-Type", OutputFormat.mediaType(lookup.result.type)), at: 0)
        return ServiceResponse(status: 200, headers: headers, body: lookup.result.image)
    }

    /// Whether an `If-None-Match` list names `etag` (or is `*`); weak tags match too.
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// The JSON of `/info`.
    static func describe(_ data: Data, maxPixels: Int) throws(ServiceError) -> ServiceResponse {
        var options = ImageDecoder.Options()
        options.maxPixelCount = maxPixels
        do throws(ImageError) {
            let decoder = try ImageDecoder(data: data, options: options)
            let durations = decoder.frameInfos.map(\.duration)
            return .json(
                [
                    "format": decoder.type?.rawValue ?? "unknown", "mime_type": decoder.type.map(OutputFormat.mediaType) ?? "",
                    "width": decoder.orientedWidth, "height": decoder.orientedHeight, "frames": decoder.frameCount,
                    "durations": durations, "loop_count": decoder.loopCount, "bytes": data.count,
                    "orientation": decoder.orientation.rawValue,
                ], cacheControl: "public, max-age=3600")
        } catch {
            throw ImageRenderer.serviceError(for: error)
        }
    }
}

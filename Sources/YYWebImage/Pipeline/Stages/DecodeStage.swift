import Foundation
import YYCache
import YYDispatch
import YYImage

/// The decode stage: waits for the original from the data stage (sharing its data job with
/// every request of the same bytes), decodes it on a queue of the shared `DispatchQueuePool`,
/// runs the request's processors, and keeps the result in the memory cache. Previews of a
/// progressive download are decoded here too, for the requests that want them.
struct DecodeStage: Sendable {
    let configuration: ImagePipeline.Configuration
    let counters: Locked<ImagePipeline.Statistics>
    /// The data jobs, shared by the requests of the same original.
    let originals: TaskCoalescer<String, OriginalData, OriginalDataEvent>
    let data: OriginalDataStage
    /// The image jobs under way, so that an older one's image does not replace a newer one's in memory.
    let memoryWrites = NewestJobWins()

    /// The image `request` asks for, decoded, processed and kept in memory.
    func load(_ request: ImageRequest, keys: RequestKeys, context: ImageJobContext) async throws(ImagePipelineError) -> LoadedImage {
        try await memoryWrites.run(keys.image) { job throws(ImagePipelineError) in
            let options = decoderOptions(for: request)
            let original = try await originals.value(
                for: keys.dataJob, waiter: dataWaiter(context, previews: PreviewMaker(options: options)),
                work: data.work(request, keys: keys))
            try Task.checkCancellation(or: .cancelled)
            counters.withLock { $0.decodes += 1 }
            // The data stage's decoder fits only when no processor asked to decode smaller.
            let parsed = options.maxPixelSize == configuration.decoderOptions.maxPixelSize ? original.decoder : nil
            let image = try await Self.decode(original.data, parsed: parsed, options: options, request: request)
            if !request.options.contains(.ignoreMemoryCache), let memoryCache = configuration.memoryCache {
                // The decoded first frame, plus the bytes an animation keeps to decode the others.
                let cost = image.bytesPerFrame + (image.frameCount > 1 ? original.data.count : 0)
                job.commitIfNewest { memoryCache.setValue(image, forKey: keys.image, cost: cost) }
            }
            return LoadedImage(image: image, original: original)
        }
    }

    /// The pipeline's decoder options, decoding smaller when the first processor asks for it.
    private func decoderOptions(for request: ImageRequest) -> ImageDecoder.Options {
        var options = configuration.decoderOptions
        options.maxPixelSize = request.processors.first?.decodingMaxPixelSize
        return options
    }

    /// How the image job waits on the data job: at its priority, passing progress on and
    /// turning partial data into previews for the requests that want them.
    private func dataWaiter(_ context: ImageJobContext, previews: PreviewMaker) -> TaskCoalescer<String, OriginalData, OriginalDataEvent>.Waiter {
        .init(
            priority: context.priority,
            wantsPartialResults: { context.wantsPartialResults },
            onEvent: { [counters] event in
                switch event {
                case .progress(let received, let expected):
                    context.send(.progress(received: received, expected: expected))
                case .partialData(let data):
                    guard context.wantsPartialResults, let preview = previews.preview(of: data) else { return }
                    counters.withLock { $0.previews += 1 }
                    context.send(.preview(preview))
                }
            })
    }

    /// Decodes (through `parsed` when the data stage made a decoder that fits) and processes,
    /// on a queue of the shared pool. A still decodes smaller on load when the first processor
    /// allows it and no size cap applies; that processor then works out its sizes from the
    /// original's.
    private static func decode(
        _ data: Data, parsed: ImageDecoder?, options: ImageDecoder.Options, request: ImageRequest
    ) async throws(ImagePipelineError) -> Image {
        let firstFrameOnly = request.options.contains(.firstFrameOnly)
        let processors = request.processors
        return try await DispatchQueuePool.shared(for: .userInitiated).run { () throws(ImagePipelineError) -> Image in
            do throws(ImageError) {
                let decoder: ImageDecoder
                if let parsed { decoder = parsed } else { decoder = try ImageDecoder(data: data, options: options) }
                let source = (width: decoder.orientedWidth, height: decoder.orientedHeight)
                let shrinkOnLoad =
                    options.maxPixelSize == nil && decoder.frameCount == 1
                    ? processors.first?.shrinkOnLoad(sourceWidth: source.width, sourceHeight: source.height) : nil
                var image: Image
                if let shrinkOnLoad, let type = decoder.type {
                    // The same decoder, its header already read, decodes the still smaller.
                    image = Image(bitmap: try decoder.frame(at: 0, shrinkOnLoad: shrinkOnLoad), type: type)
                } else {
                    image = try Image(decoder: decoder)
                }
                if firstFrameOnly, image.frameCount > 1 { image = Image(bitmap: try image.frame(at: 0), type: image.type, scale: image.scale) }
                for (index, processor) in processors.enumerated() {
                    if index == 0, shrinkOnLoad != nil {
                        image = try processor.process(image, decodedFrom: source)
                    } else {
                        image = try processor.process(image)
                    }
                }
                return image
            } catch {
                throw .decodingFailed(error)
            }
        }
    }
}

/// What an image job's work sees of the requests waiting on it.
typealias ImageJobContext = TaskCoalescer<String, LoadedImage, ImageTask.Event>.Context

/// A decoded image with the original bytes it came from.
struct LoadedImage: Sendable {
    var image: Image
    var original: OriginalData
}

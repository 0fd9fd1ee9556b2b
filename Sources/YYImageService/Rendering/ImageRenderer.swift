import Foundation
import YYDispatch
import YYImage

/// Decodes a source, runs the plan over its frames and encodes the result, within the service's
/// limits and checking its deadline between frames and steps (so a request past its deadline
/// stops working, rather than finishing for nobody).
struct ImageRenderer: Sendable {
    /// The service's limits on sources and results.
    struct Limits: Sendable {
        /// Pixels of a source, summed over its frames.
        var sourcePixels: Int
        /// Frames of a source.
        var frames: Int
        /// The longest side of a result.
        var resultSide: Int
        /// What a render may cost: result pixels and memory.
        var budget: RenderBudget
        /// Pixels of each frame of an animation (`nil`: only the sum is limited).
        var framePixels: Int?

        /// These limits, lowered where `security` asks for less.
        func lowered(by security: ProcessingOptions.SecurityLimits) -> Limits {
            var limits = self
            if let pixels = security.sourcePixels { limits.sourcePixels = min(limits.sourcePixels, pixels) }
            if let frames = security.frames { limits.frames = min(limits.frames, frames) }
            if let side = security.resultSide { limits.resultSide = min(limits.resultSide, side) }
            if let pixels = security.framePixels { limits.framePixels = min(limits.framePixels ?? .max, pixels) }
            return limits
        }
    }

    /// What a render produced, and how long each stage took.
    struct Output: Sendable {
        var data: Data
        var type: ImageType
        var decoding: Duration = .zero
        var processing: Duration = .zero
        var encoding: Duration = .zero
        /// When the source last changed, where its origin says (set by the request handler).
        var lastModified: Date?
    }

    var limits: Limits
    /// How many times the result's size a shrink-on-load keeps, at least 1.
    let shrinkOnLoadGap: Double
    /// AVIF's encoder speed (0...10; the service's default favours speed, as imgproxy's does).
    let avifSpeed: Int
    /// The watermark's base opacity, which the `watermark` option's multiplies.
    var watermarkOpacity = 1.0

    /// `data` rendered for `options` (with `watermark`, the service's watermark image, drawn
    /// over it when the options ask) in the format `choice` resolves to, stopping with a 503 at
    /// the first check after `deadline` or after `cancellation` is set. `isAlone` says that no
    /// other request is at work, so the encoder may use every core.
    func render(
        _ data: Data, watermark: Data? = nil, options: ProcessingOptions, choice: OutputFormat.Choice, isAlone: Bool,
        deadline: ContinuousClock.Instant, cancellation: CancellationFlag
    ) throws(ServiceError) -> Output {
        let checkpoint = { () throws(ImageError) in
            if cancellation.isCancelled || ContinuousClock.now >= deadline { throw ImageError.cancelled }
        }
        // An SVG goes out as SVG, sanitised, unless a raster format is named: imgproxy rasterises
        // only then.
        let isSVG = ImageType(sniffing: data) == .svg
        if isSVG, choice == .named(.svg) || choice.dependsOnAccept {
            return Output(data: try SVGSanitizer.sanitized(data, style: options.svgStyle), type: .svg)
        }
        if choice == .named(.svg) { throw .unprocessable("SVG output needs an SVG source") }
        // The URL's security options may lower the limits for this request.
        var renderer = self
        renderer.limits = limits.lowered(by: options.security)
        do throws(ImageError) {
            return try renderer.renderChecked(
                data, watermark: watermark, options: options, choice: choice, isAlone: isAlone, checkpoint: checkpoint)
        } catch {
            throw Self.serviceError(for: error)
        }
    }

    private func renderChecked(
        _ data: Data, watermark: Data?, options: ProcessingOptions, choice: OutputFormat.Choice, isAlone: Bool,
        checkpoint: () throws(ImageError) -> Void
    ) throws(ImageError) -> Output {
        let clock = ContinuousClock()
        var started = clock.now
        var decoderOptions = ImageDecoder.Options()
        decoderOptions.maxPixelCount = limits.sourcePixels
        decoderOptions.convertsToSRGB = true
        decoderOptions.appliesOrientation = options.autoRotate
        decoderOptions.usesEmbeddedThumbnail = options.enforceThumbnail
        decoderOptions.svgStylesheet = options.svgStyle
        var decoder = try ImageDecoder(data: data, options: decoderOptions)
        let sourceType = decoder.type ?? .png
        try check(decoder)
        // `skip_processing`: a listed format goes out as it came (after the limits above) when no
        // other format is named (`best` names several).
        if options.skipProcessing.contains(sourceType), choice == .named(sourceType) || choice.isNegotiated {
            return Output(data: data, type: sourceType)
        }
        let isAnimation = decoder.frameCount > 1 && !options.disableAnimation
        // The format the frames are processed for, and those they are encoded in (several for `best`).
        let type = OutputFormat.resolve(choice, sourceType: sourceType, isAnimated: isAnimation)
        let animated = isAnimation && OutputFormat.keepsAnimation(type)
        var candidates = OutputFormat.candidates(choice, sourceType: sourceType, isAnimated: animated)
        // A still result is made from the pages `page` and `pages` pick.
        let pages = animated ? 0..<1 : try selectedPages(options, decoder)
        // `strip_color_profile:0`: a format that carries a profile keeps the source's colour and
        // profile; the others (which would be read as sRGB) still get sRGB. A source without a
        // profile is sRGB already and is not read again.
        if !options.stripColorProfile, decoder.colorProfile != nil, candidates.allSatisfy(OutputFormat.embedsColorProfile) {
            decoderOptions.convertsToSRGB = false
            decoder = try ImageDecoder(data: data, options: decoderOptions)
        }
        // A drawing is made at the size asked for, larger than its own too.
        var options = options
        if sourceType == .svg { options.enlarge = true }
        // The plan from the source's size when frames have the canvas's size (not ICO's
        // entries) and no step needs the pixels first; then a still may shrink on load, at a
        // power-of-two scale that keeps `shrinkOnLoadGap` times the result (Benchmarks/README.md:
        // the rule measured against thumbor's; a PNG keeps the resize's own gap, see
        // `RenderPlan.shrinkOnLoad`), and an SVG is drawn at the resize's scale.
        var canvas = (width: decoder.orientedWidth, height: decoder.orientedHeight)
        var plan =
            decoder.compositesFrames && pages == 0..<1 ? try RenderPlan(beforeDecoding: options, sourceSize: canvas, outputType: type) : nil
        if sourceType == .svg, let scale = plan?.chain.vectorScale(sourceWidth: canvas.width, sourceHeight: canvas.height), scale != 1 {
            decoderOptions.vectorScale = scale
            decoder = try ImageDecoder(data: data, options: decoderOptions)
            canvas = (decoder.orientedWidth, decoder.orientedHeight)
        }
        let framesKept = animated ? decoder.frameCount : 1
        if let plan { candidates = try affordable(candidates, decoded: canvas, result: plan.outputSize, frames: framesKept) }
        let shrinkOnLoad = animated ? nil : plan?.shrinkOnLoad(of: sourceType, reducingGap: shrinkOnLoadGap)
        var output = Output(data: Data(), type: type)
        var encoders = candidates.map { encoder(for: $0, options: options, decoder: decoder, isAlone: isAlone) }
        output.decoding += clock.now - started
        var overlay: WatermarkOverlay?
        for index in 0..<(animated ? decoder.frameCount : 1) {
            try checkpoint()
            started = clock.now
            var frame =
                pages == 0..<1
                ? try decoder.frame(at: index, shrinkOnLoad: shrinkOnLoad, checkpoint: checkpoint)
                : try stacked(pages, of: decoder, checkpoint: checkpoint)
            if let blur = options.blurAreas {
                frame = try frame.blurringAreas(
                    Self.pixelRects(blur.areas, of: frame, storedAs: options.autoRotate ? decoder.orientation : .up),
                    sigma: min(ProcessingLimits.maxFilterSigma, blur.sigma * Double(frame.width) / Double(max(1, canvas.width))))
            }
            if let threshold = options.trimThreshold, !animated {
                frame = frame.trimmed(
                    threshold: threshold, background: options.trimColor, equalHorizontal: options.trimEqualHorizontal,
                    equalVertical: options.trimEqualVertical)
            }
            output.decoding += clock.now - started
            started = clock.now
            let framePlan: RenderPlan
            if let plan {
                framePlan = plan
            } else {
                framePlan = try RenderPlan(options: options, frame: frame, outputType: type)
                try limits.budget.check(decoded: canvas, result: framePlan.outputSize, frames: framesKept, type: type)
                plan = framePlan
            }
            frame = try framePlan.chain.apply(to: frame, decodedFrom: framePlan.sourceSize, checkpoint: checkpoint)
            // The watermark, last of all, the same on every frame.
            if let watermark, let mark = options.watermark {
                if overlay == nil {
                    overlay = try WatermarkOverlay(
                        data: watermark, options: mark, style: options.watermarkStyle, dpr: options.dpr, baseOpacity: watermarkOpacity,
                        resultSize: (frame.width, frame.height), maxPixels: limits.sourcePixels, checkpoint: checkpoint)
                }
                if let overlay { frame = overlay.drawn(over: frame) }
            }
            guard max(frame.width, frame.height) <= limits.resultSide else {
                throw .invalidParameter(name: "result", "\(frame.width)x\(frame.height) is over the result limit of \(limits.resultSide) pixels")
            }
            // JPEG is a candidate only for an opaque result (it would lose the transparency).
            if encoders.count > 1, encoders.contains(where: \.type.storesAlpha), !frame.isOpaque {
                encoders.removeAll { !$0.type.storesAlpha }
            }
            for candidate in encoders.indices {
                encoders[candidate].addFrame(frame, duration: animated ? decoder.frameInfos[index].duration : 0)
            }
            output.processing += clock.now - started
        }
        try checkpoint()
        started = clock.now
        // The smallest of the candidates' encodings (the first of equals).
        for encoder in encoders {
            let data = try encode(encoder, maxBytes: options.maxBytes, checkpoint: checkpoint)
            if output.data.isEmpty || data.count < output.data.count { (output.data, output.type) = (data, encoder.type) }
        }
        output.encoding = clock.now - started
        return output
    }

    /// The `candidates` the render budget affords for a render of `frames` frames decoded at
    /// `decoded` into `result`; with one candidate, or none affordable, the budget's refusal.
    private func affordable(
        _ candidates: [ImageType], decoded: (width: Int, height: Int), result: (width: Int, height: Int), frames: Int
    ) throws(ImageError) -> [ImageType] {
        let affordable = candidates.filter { candidate in
            (try? limits.budget.check(decoded: decoded, result: result, frames: frames, type: candidate)) != nil
        }
        if affordable.isEmpty || candidates.count == 1 {
            try limits.budget.check(decoded: decoded, result: result, frames: frames, type: candidates[0])
        }
        return affordable
    }

    /// `blur_areas`' rectangles (left, top, width, height as fractions of the source as stored)
    /// in the pixels of `frame`, which is the source turned upright from `orientation`.
    static func pixelRects(_ areas: [[Double]], of frame: Bitmap, storedAs orientation: ImageOrientation) -> [PixelRect] {
        areas.map { area in
            // The stored rectangle's corners, turned as the pixels were (EXIF's eight cases).
            let corners = [(area[0], area[1]), (area[0] + area[2], area[1] + area[3])].map { (u, v) -> (Double, Double) in
                switch orientation {
                case .up: (u, v)
                case .upMirrored: (1 - u, v)
                case .down: (1 - u, 1 - v)
                case .downMirrored: (u, 1 - v)
                case .leftMirrored: (v, u)
                case .right: (1 - v, u)
                case .rightMirrored: (1 - v, 1 - u)
                case .left: (v, 1 - u)
                }
            }
            let (w, h) = (Double(frame.width), Double(frame.height))
            let x0 = Int((min(corners[0].0, corners[1].0) * w).rounded()), x1 = Int((max(corners[0].0, corners[1].0) * w).rounded())
            let y0 = Int((min(corners[0].1, corners[1].1) * h).rounded()), y1 = Int((max(corners[0].1, corners[1].1) * h).rounded())
            return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
    }

    /// An encoder for `type` with the request's quality and the source's loop count and
    /// metadata, as the options keep them.
    private func encoder(for type: ImageType, options: ProcessingOptions, decoder: ImageDecoder, isAlone: Bool) -> ImageEncoder {
        var encoder = ImageEncoder(type: type)
        encoder.quality = Double(options.effectiveQuality(for: type)) / 100
        if type == .avif { encoder.effort = 10 - min(max(avifSpeed, 0), 10) }
        encoder.loopCount = decoder.loopCount
        // Under load every core already encodes a request of its own.
        encoder.usesAllCores = isAlone
        if !options.stripMetadata {
            encoder.exif = decoder.exifForUprightPixels
            encoder.xmp = decoder.xmp
        } else if options.keepCopyright {
            encoder.exif = decoder.copyrightEXIF
        }
        encoder.colorProfile = decoder.decodedColorProfile
        return encoder
    }

    /// The pages `page` and `pages` pick: a TIFF's directories or an ICNS file's sizes, else an
    /// animation's frames (a page past the last is a 422).
    private func selectedPages(_ options: ProcessingOptions, _ decoder: ImageDecoder) throws(ImageError) -> Range<Int> {
        let count = decoder.pageCount > 1 ? decoder.pageCount : decoder.frameCount
        guard options.page < count else {
            throw .invalidParameter(name: "page", "page \(options.page) of a source with \(count) (pages count from 0)")
        }
        return options.page..<min(count, options.page + options.pages)
    }

    /// `pages` of the source decoded and stacked top to bottom, left-aligned, on transparency;
    /// their pixels summed may not pass the source limit.
    private func stacked(_ pages: Range<Int>, of decoder: ImageDecoder, checkpoint: () throws(ImageError) -> Void) throws(ImageError)
        -> Bitmap
    {
        var bitmaps: [Bitmap] = []
        var pixels = 0
        for index in pages {
            try checkpoint()
            let page =
                decoder.pageCount > 1
                ? try decoder.page(at: index) : try decoder.frame(at: index, shrinkOnLoad: nil, checkpoint: checkpoint)
            pixels += page.width * page.height
            guard pixels <= limits.sourcePixels else {
                throw .invalidParameter(name: "pixels", "\(pixels) pixels in the pages, over the limit of \(limits.sourcePixels)")
            }
            bitmaps.append(page.converted(to: .straight))
        }
        guard bitmaps.count > 1 else { return bitmaps[0] }
        // Narrow pages are padded to the widest: the stack's area is what memory holds.
        let width = bitmaps.map(\.width).max() ?? 0, height = bitmaps.reduce(0) { $0 + $1.height }
        guard width * height <= limits.sourcePixels else {
            throw .invalidParameter(name: "pixels", "\(width)x\(height) pages stacked, over the limit of \(limits.sourcePixels) pixels")
        }
        var rows: [UInt8] = []
        rows.reserveCapacity(width * height * 4)
        for bitmap in bitmaps {
            let packed = bitmap.packedPixels, rowBytes = bitmap.width * 4
            for row in 0..<bitmap.height {
                rows += packed[row * rowBytes..<(row + 1) * rowBytes]
                rows += repeatElement(0, count: (width - bitmap.width) * 4)
            }
        }
        guard let stack = Bitmap(width: width, height: height, pixels: rows) else {
            throw .invalidParameter(name: "pages", "\(width)x\(height) cannot be stacked")
        }
        return stack
    }

    /// Refuses more frames, or more pixels summed over the frames, than the limits allow. Each
    /// frame counts the larger of the canvas and its own rectangle: a GIF's frames may be far
    /// larger than its logical screen, and their data is decoded whole.
    private func check(_ decoder: ImageDecoder) throws(ImageError) {
        guard decoder.frameCount <= limits.frames else {
            throw .invalidParameter(name: "frames", "\(decoder.frameCount) frames, over the limit of \(limits.frames)")
        }
        // Pixel counts saturate at Int.max, which every limit refuses.
        func pixels(_ width: Int, _ height: Int) -> Int {
            let product = width.multipliedReportingOverflow(by: height)
            return product.overflow ? .max : product.partialValue
        }
        let canvas = pixels(decoder.canvasWidth, decoder.canvasHeight)
        var total = canvas
        if decoder.frameCount > 1 {
            total = 0
            for frame in decoder.frameInfos {
                let framePixels = max(pixels(frame.width, frame.height), canvas)
                if let limit = limits.framePixels, framePixels > limit {
                    throw .invalidParameter(name: "pixels", "a frame of \(framePixels) pixels, over the limit of \(limit)")
                }
                let sum = total.addingReportingOverflow(framePixels)
                total = sum.overflow ? .max : sum.partialValue
            }
        }
        guard total <= limits.sourcePixels else {
            throw .invalidParameter(name: "pixels", "\(total) pixels summed over the frames, over the limit of \(limits.sourcePixels)")
        }
    }

    /// The encoded bytes; with `maxBytes`, lossy formats are encoded again at lower quality
    /// (at most 8 times, down to quality 0.1) until they fit.
    private func encode(_ encoder: ImageEncoder, maxBytes: Int, checkpoint: () throws(ImageError) -> Void) throws(ImageError) -> Data {
        var encoder = encoder
        var data = try encoder.encode(checkpoint: checkpoint)
        guard maxBytes > 0, [.jpeg, .webp, .avif, .jpegXL].contains(encoder.type) else { return data }
        var attempts = 0
        while data.count > maxBytes, attempts < 8, encoder.quality > 0.1 {
            try checkpoint()
            // Scale quality by how far off the size is, never by less than 10 %.
            let ratio = Double(maxBytes) / Double(data.count)
            encoder.quality = max(0.1, encoder.quality * min(0.9, ratio.squareRoot()))
            data = try encoder.encode(checkpoint: checkpoint)
            attempts += 1
        }
        return data
    }

    /// A decoding or processing error as the status imgproxy gives it: 422 with a fixed message
    /// (a parameter's own range text is ours, written with numbers only), 503 when cancelled.
    /// What the codec said goes to the log.
    static func serviceError(for error: ImageError) -> ServiceError {
        switch error {
        case .unknownFormat: ServiceError.unprocessable("the source is not an image this service reads").ofSource
        case .tooManyPixels(let width, let height, let limit):
            .unprocessable("the source has \(width)x\(height) pixels, over the limit of \(limit)")
        case .invalidParameter(let name, let detail): .unprocessable("\(name): \(detail)")
        case .fileSystem: .unprocessable("the source cannot be read").logging(error.description)
        case .cancelled: .unavailable("processing took longer than the processing timeout")
        default: .unprocessable("the source cannot be decoded").logging(error.description)
        }
    }
}

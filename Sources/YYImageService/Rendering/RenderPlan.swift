import YYImage

/// The processing steps for one request and one source, in imgproxy's order: blur areas and trim
/// (done by the renderer before), crop, resize (by the resizing type, with `dpr`, `zoom` and the
/// minimum sides), rotate, flip, unsharp masking, adjust, monochrome, duotone, blur, sharpen,
/// pixelate, extend, extend to the aspect ratio, padding, colorize, gradient, background.
///
/// Made once per request: before decoding, from the source's size, when no step needs the
/// pixels to be planned (then the decoder may shrink on load, see ``shrinkOnLoad(of:reducingGap:)``);
/// otherwise from the first frame, trimmed.
struct RenderPlan: Sendable {
    /// The steps after trim, applied to every frame.
    let chain: ProcessingChain
    /// The upright size of the image the plan is for, from which every size is worked out.
    let sourceSize: (width: Int, height: Int)
    /// The size of every frame the chain makes.
    let outputSize: (width: Int, height: Int)

    /// The plan for `options` on a source of `sourceSize` (upright), written as `outputType`,
    /// made before anything is decoded; `nil` when the plan needs the first frame: a trim
    /// changes the size, a crop may look at the pixels (smart gravity).
    init?(beforeDecoding options: ProcessingOptions, sourceSize: (width: Int, height: Int), outputType: ImageType) throws(ImageError) {
        guard options.trimThreshold == nil, options.crop == nil else { return nil }
        try self.init(options: options, sourceSize: sourceSize, frame: nil, outputType: outputType)
    }

    /// The plan for `options` on `frame` (the first frame, trimmed when trimming), written as
    /// `outputType`.
    init(options: ProcessingOptions, frame: Bitmap, outputType: ImageType) throws(ImageError) {
        try self.init(options: options, sourceSize: (frame.width, frame.height), frame: frame, outputType: outputType)
    }

    private init(options o: ProcessingOptions, sourceSize: (width: Int, height: Int), frame: Bitmap?, outputType: ImageType) throws(ImageError) {
        assert(o.crop == nil || frame != nil, "a crop is planned on the first frame")
        var steps: [ProcessingStep] = []
        var size = sourceSize
        if let crop = o.crop, let frame {
            var (width, height) = (Self.cropSide(crop.width, of: size.width), Self.cropSide(crop.height, of: size.height))
            if o.cropAspectRatio > 0 {
                (width, height) = Self.corrected((width, height), to: o.cropAspectRatio, enlarging: o.cropAspectRatioEnlarges, within: size)
            }
            // The crop's own gravity and offset, else the request's; offsets in source pixels.
            let (gravity, offset) = crop.gravity.map { ($0, crop.offset) } ?? (o.gravity, o.gravityOffset)
            let origin =
                offset.isZero
                ? gravity.cropOrigin(in: frame, width: width, height: height)
                : gravity.origin(of: (width, height), in: size, offset: offset.pixels(in: size, scale: 1))
            steps.append(.crop(PixelRect(x: origin.x, y: origin.y, width: width, height: height)))
            size = (width, height)
        }
        // The resize: by the resizing type into the box in one pass (its crop inside), or by
        // imgproxy's arithmetic (a zoom, a minimum side, a gravity offset, or a turn or mirror,
        // so that the gravity means the result's orientation): scaled first, turned and mirrored,
        // then cropped to the box at the gravity.
        let box = Self.box(o)
        var resultCrop: (width: Int, height: Int)?
        var resize: Resize?
        if Self.cropsAfterTurning(o) {
            let scaled = Self.scaledResize(o, box: box, source: size)
            resize = scaled.resize
            resultCrop = scaled.kept
        } else {
            resize = Self.resize(o, box: box, source: size)
        }
        var downscaled = false
        if var resize {
            resize.options.kernel = o.resizingAlgorithm
            let resized = try resize.outputSize(sourceWidth: size.width, sourceHeight: size.height)
            downscaled = resized.width < size.width || resized.height < size.height
            size = resized
            steps.append(.resize(resize))
        }
        // Turns and mirrors; every later step works on the picture as it ends up.
        if let turn = QuarterTurn(rawValue: o.rotation) {
            steps.append(.rotate(turn))
            if turn != .half {
                size = (size.height, size.width)
                resultCrop = resultCrop.map { ($0.height, $0.width) }
            }
        }
        if o.flipHorizontal { steps.append(.flop) }
        if o.flipVertical { steps.append(.flip) }
        if let kept = resultCrop, kept != size {
            let origin = o.gravity.origin(of: kept, in: size, offset: o.gravityOffset.pixels(in: size, scale: o.dpr))
            steps.append(.crop(PixelRect(x: origin.x, y: origin.y, width: kept.width, height: kept.height)))
            size = kept
        }
        // imgproxy Pro's unsharp masking, right after the scaling it makes up for.
        let mask = o.unsharpMasking
        if mask.mode == .always || (mask.mode == .auto && downscaled && o.sharpenSigma == 0) {
            steps.append(.unsharpMask(weight: mask.weight, divider: mask.divider))
        }
        // Colour, then filters, before any padding, so that the padding keeps its colour.
        if !o.adjustment.isIdentity { steps.append(.adjust(o.adjustment)) }
        if o.monochromeIntensity > 0 { steps.append(.monochrome(color: o.monochromeColor, intensity: o.monochromeIntensity)) }
        if o.duotoneIntensity > 0 { steps.append(.duotone(dark: o.duotoneDark, light: o.duotoneLight, intensity: o.duotoneIntensity)) }
        if o.blurSigma > 0 { steps.append(.blur(sigma: o.blurSigma)) }
        if o.sharpenSigma > 0 { steps.append(.sharpen(sigma: o.sharpenSigma)) }
        if o.pixelateSize > 1 { steps.append(.pixelate(size: o.pixelateSize)) }
        // Extending to the box, to its aspect ratio, then the padding.
        let background = o.background.map { RGBA($0.r, $0.g, $0.b, UInt8((o.backgroundAlpha * 255).rounded())) }
        // A translucent background is laid under everything once, by the flatten at the end:
        // the padding stays clear until then.
        let padding = background.flatMap { $0.a == 255 ? $0 : nil } ?? RGBA(0, 0, 0, 0)
        let target = Self.target(o)
        if o.extend, target.width > 0 || target.height > 0 {
            let extended = (width: max(target.width, size.width), height: max(target.height, size.height))
            Self.extend(&steps, &size, to: extended, at: o.extendGravity, o.extendOffset, dpr: o.dpr, background: padding)
        }
        if o.extendAspectRatio, target.width > 0, target.height > 0 {
            Self.extend(
                &steps, &size, to: Self.aspectRatioExtent(of: size, target: target), at: o.extendAspectRatioGravity,
                o.extendAspectRatioOffset, dpr: o.dpr, background: padding)
        }
        if let sides = o.padding {
            // imgproxy scales the padding by `dpr`, rounding halves to even.
            let scaled = { (side: Int) in Int((Double(side) * o.dpr).rounded(.toNearestOrEven)) }
            let (top, right, bottom, left) = (scaled(sides.top), scaled(sides.right), scaled(sides.bottom), scaled(sides.left))
            if top + right + bottom + left > 0 {
                steps.append(.extend(top: top, left: left, bottom: bottom, right: right, background: padding))
                size = (size.width + left + right, size.height + top + bottom)
            }
        }
        // Overlays over the whole result, padding included.
        if o.colorizeOpacity > 0 {
            steps.append(.colorize(color: o.colorizeColor, opacity: o.colorizeOpacity, keepsAlpha: o.colorizeKeepsAlpha))
        }
        if o.gradient.opacity > 0 { steps.append(.gradient(o.gradient)) }
        if let background { steps.append(.flatten(background: background)) }
        if background?.a != 255, !outputType.storesAlpha { steps.append(.flatten(background: RGBA(255, 255, 255))) }
        chain = ProcessingChain(steps)
        self.sourceSize = sourceSize
        outputSize = size
    }

    /// The longest side a decoder of `sourceType` may shrink the source to before the chain runs:
    /// set when the chain starts with a resize that shrinks. Decoders that decode smaller (JPEG,
    /// WebP, JPEG 2000) keep `reducingGap` times the scaled size (`nil`: the scaled size itself);
    /// PNG, which averages blocks of pixels as it inflates them (the resampler's own pre-shrink,
    /// done early), keeps the resize's own reducing gap, and does not shrink when it has none.
    /// The frame then goes to the chain with ``sourceSize`` as the size it was decoded from.
    func shrinkOnLoad(of sourceType: ImageType, reducingGap: Double?) -> Int? {
        guard case .resize(var resize)? = chain.steps.first else { return nil }
        if sourceType == .png {
            guard resize.options.reducingGap != nil else { return nil }
        } else {
            resize.options.reducingGap = reducingGap
        }
        return ProcessingChain([.resize(resize)]).shrinkOnLoad(sourceWidth: sourceSize.width, sourceHeight: sourceSize.height)
    }

    /// The box of `o` in pixels (after `dpr`), for the image before its turn: the box is for
    /// the image as it ends up, so a quarter turn swaps its sides before the resize.
    static func box(_ o: ProcessingOptions) -> (width: Int, height: Int) {
        box(width: o.width, height: o.height, dpr: o.dpr, turned: o.rotation == 90 || o.rotation == 270)
    }

    /// `width` × `height` times `dpr`, sides swapped when the picture is `turned` a quarter.
    private static func box(width: Int, height: Int, dpr: Double, turned: Bool) -> (width: Int, height: Int) {
        let box = (width: pixels(Double(width) * dpr), height: pixels(Double(height) * dpr))
        return turned ? (box.height, box.width) : box
    }

    /// The resize of `o` for a `box` (0 = follow the aspect ratio) and a source of `source`.
    static func resize(_ o: ProcessingOptions, box: (width: Int, height: Int), source: (width: Int, height: Int)) -> Resize? {
        guard box.width > 0 || box.height > 0 else { return nil }
        let width = box.width > 0 ? box.width : nil, height = box.height > 0 ? box.height : nil
        let fit = Resize(width: width, height: height, fit: .inside, enlarge: o.enlarge)
        guard let boxWidth = width, let boxHeight = height else { return fit }
        switch o.resizingType {
        case .fit:
            return fit
        case .fill:
            return Resize(width: boxWidth, height: boxHeight, fit: .cover, gravity: o.gravity, enlarge: o.enlarge)
        case .fillDown:
            let scale = o.enlarge ? 1 : min(1, Double(source.width) / Double(boxWidth), Double(source.height) / Double(boxHeight))
            return Resize(
                width: max(1, Int((Double(boxWidth) * scale).rounded())), height: max(1, Int((Double(boxHeight) * scale).rounded())),
                fit: .cover, gravity: o.gravity, enlarge: o.enlarge)
        case .force:
            return Resize(width: boxWidth, height: boxHeight, fit: .fill, enlarge: true)
        case .auto:
            let sameOrientation = (source.width >= source.height) == (boxWidth >= boxHeight)
            return sameOrientation ? Resize(width: boxWidth, height: boxHeight, fit: .cover, gravity: o.gravity, enlarge: o.enlarge) : fit
        }
    }

    /// imgproxy's `crop_aspect_ratio`: the crop's longer side (relative to `ratio`) shortened,
    /// or with `enlarging` the shorter one lengthened, then both scaled down together until the
    /// crop fits in `extent`.
    static func corrected(
        _ crop: (width: Int, height: Int), to ratio: Double, enlarging: Bool, within extent: (width: Int, height: Int)
    ) -> (width: Int, height: Int) {
        var (width, height) = (Double(crop.width), Double(crop.height))
        if (width / height > ratio) != enlarging { width = height * ratio } else { height = width / ratio }
        let fit = min(1, Double(extent.width) / width, Double(extent.height) / height)
        return (min(extent.width, max(1, Int((width * fit).rounded()))), min(extent.height, max(1, Int((height * fit).rounded()))))
    }

    /// A crop side: 0 the whole side, below 1 a fraction of it, else pixels (at most the side).
    static func cropSide(_ value: Double, of side: Int) -> Int {
        if value == 0 { return side }
        if value < 1 { return max(1, Int((value * Double(side)).rounded())) }
        return min(side, Int(value.rounded()))
    }

    /// The box as the result ends up (after any turn), times `dpr` and `zoom`; 0 for a side
    /// that follows the aspect ratio. Extending works to it.
    static func target(_ o: ProcessingOptions) -> (width: Int, height: Int) {
        (Self.pixels(Double(o.width) * o.dpr * o.zoomX), Self.pixels(Double(o.height) * o.dpr * o.zoomY))
    }

    /// Whether the resize is planned by ``scaledResize(_:box:source:)`` and its crop made after
    /// the turn and the mirrors: for a zoom, a minimum side, a gravity offset, or a turn or mirror
    /// of a picture a smart gravity does not crop (that one needs the crop inside the resize,
    /// where it can look at the pixels; with a zoom or a minimum side it crops at the centre).
    static func cropsAfterTurning(_ o: ProcessingOptions) -> Bool {
        if o.zoomX != 1 || o.zoomY != 1 || o.minWidth > 0 || o.minHeight > 0 || !o.gravityOffset.isZero { return true }
        let smart = o.gravity == .attention || o.gravity == .entropy
        return (o.rotation != 0 || o.flipHorizontal || o.flipVertical) && !smart
    }

    /// imgproxy's resize: the scale the resizing type gives for `box` (both in the picture's
    /// orientation before any turn), times the zoom, no larger than 1 unless enlarging, raised to
    /// the minimum sides (which may enlarge); and the size to keep of it, the box times the zoom
    /// (`fill` and `fill-down` crop it, and so does a minimum side that overshot the box), before
    /// the turn.
    static func scaledResize(
        _ o: ProcessingOptions, box: (width: Int, height: Int), source: (width: Int, height: Int)
    ) -> (resize: Resize?, kept: (width: Int, height: Int)) {
        let turned = o.rotation == 90 || o.rotation == 270
        let zoom = turned ? (x: o.zoomY, y: o.zoomX) : (x: o.zoomX, y: o.zoomY)
        let minimum = Self.box(width: o.minWidth, height: o.minHeight, dpr: o.dpr, turned: turned)
        let (sw, sh) = (Double(source.width), Double(source.height))
        var scale = Self.scale(o, box: box, source: source)
        scale = (scale.x * zoom.x, scale.y * zoom.y)
        if !o.enlarge, max(scale.x, scale.y) > 1 {
            let largest = max(scale.x, scale.y)
            scale = (scale.x / largest, scale.y / largest)
        }
        // A scale that underflowed to 0 (a zoom near the smallest Double) gives 1 pixel.
        scale = (max(scale.x, .leastNormalMagnitude), max(scale.y, .leastNormalMagnitude))
        if minimum.width > 0, sw * scale.x < Double(minimum.width) {
            let raise = Double(minimum.width) / (sw * scale.x)
            scale = (scale.x * raise, scale.y * raise)
        }
        if minimum.height > 0, sh * scale.y < Double(minimum.height) {
            let raise = Double(minimum.height) / (sh * scale.y)
            scale = (scale.x * raise, scale.y * raise)
        }
        let scaled = (width: max(1, Self.pixels(sw * scale.x)), height: max(1, Self.pixels(sh * scale.y)))
        let resize = scaled == source ? nil : Resize(width: scaled.width, height: scaled.height, fit: .fill, enlarge: true)
        var crop = (width: Self.pixels(Double(box.width) * zoom.x), height: Self.pixels(Double(box.height) * zoom.y))
        if o.resizingType == .fillDown, !o.enlarge, crop.width > 0, crop.height > 0 {
            // A picture smaller than the box keeps the box's aspect ratio instead.
            let (dw, dh) = (Double(crop.width) / Double(scaled.width), Double(crop.height) / Double(scaled.height))
            if dw > dh, dw > 1 {
                crop = (scaled.width, max(1, Self.pixels(Double(scaled.width) * Double(crop.height) / Double(crop.width))))
            } else if dh > dw, dh > 1 {
                crop = (max(1, Self.pixels(Double(scaled.height) * Double(crop.width) / Double(crop.height))), scaled.height)
            }
        }
        let kept = (
            width: crop.width > 0 ? min(crop.width, scaled.width) : scaled.width,
            height: crop.height > 0 ? min(crop.height, scaled.height) : scaled.height
        )
        return (resize, kept)
    }

    /// The scale on each axis that the resizing type gives `source` for `box` (0: that side
    /// follows the other; `force` keeps the source's side), before zoom and the no-enlarge limit.
    private static func scale(_ o: ProcessingOptions, box: (width: Int, height: Int), source: (width: Int, height: Int)) -> (x: Double, y: Double) {
        let x = box.width > 0 ? Double(box.width) / Double(source.width) : nil
        let y = box.height > 0 ? Double(box.height) / Double(source.height) : nil
        var type = o.resizingType
        if type == .auto, x != nil, y != nil {
            type = (source.width >= source.height) == (box.width >= box.height) ? .fill : .fit
        }
        switch (x, y) {
        case (nil, nil): return (1, 1)
        case (let x?, nil): return type == .force ? (x, 1) : (x, x)
        case (nil, let y?): return type == .force ? (1, y) : (y, y)
        case (let x?, let y?):
            switch type {
            case .force: return (x, y)
            case .fill, .fillDown: return (max(x, y), max(x, y))
            case .fit, .auto: return (min(x, y), min(x, y))
            }
        }
    }

    /// The smallest extent of `target`'s aspect ratio that holds `size` (imgproxy's
    /// `extend_aspect_ratio`).
    static func aspectRatioExtent(of size: (width: Int, height: Int), target: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let (dw, dh) = (Double(target.width) / Double(size.width), Double(target.height) / Double(size.height))
        if dh > dw { return (size.width, Self.pixels(Double(size.width) * Double(target.height) / Double(target.width))) }
        if dw > dh { return (Self.pixels(Double(size.height) * Double(target.width) / Double(target.height)), size.height) }
        return size
    }

    /// Appends an extend of `size` to `extent` at `gravity` and `offset` (absolute offsets times
    /// `dpr`) when `extent` is larger.
    private static func extend(
        _ steps: inout [ProcessingStep], _ size: inout (width: Int, height: Int), to extent: (width: Int, height: Int), at gravity: Gravity,
        _ offset: ProcessingOptions.Offset, dpr: Double, background: RGBA
    ) {
        let extent = (width: max(extent.width, size.width), height: max(extent.height, size.height))
        guard extent != size else { return }
        let origin = gravity.origin(of: size, in: extent, offset: offset.pixels(in: extent, scale: dpr))
        steps.append(
            .extend(
                top: origin.y, left: origin.x, bottom: extent.height - size.height - origin.y, right: extent.width - size.width - origin.x,
                background: background))
        size = extent
    }

    /// `value` rounded to whole pixels, within what an `Int` holds (the limits refuse the rest);
    /// 0 for what is not a number (a zoom so small that a scale underflows).
    private static func pixels(_ value: Double) -> Int {
        value.isNaN ? 0 : Int(min(max(value, 0), Double(1 << 40)).rounded())
    }
}

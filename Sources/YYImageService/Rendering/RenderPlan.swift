import YYImage

/// The processing steps for one request and one source, in imgproxy's order: trim (done by the
/// renderer before), crop, resize (by the resizing type, with `dpr`), extend, rotate, blur,
/// sharpen, background.
///
/// Made once per request: before decoding, from the source's size, when no step needs the
/// pixels to be planned (then the decoder may shrink on load, see ``shrinkOnLoad(reducingGap:)``);
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
            let width = Self.cropSide(crop.width, of: size.width), height = Self.cropSide(crop.height, of: size.height)
            let origin = (crop.gravity ?? o.gravity).cropOrigin(in: frame, width: width, height: height)
            steps.append(.crop(PixelRect(x: origin.x, y: origin.y, width: width, height: height)))
            size = (width, height)
        }
        let box = Self.box(o)
        if let resize = Self.resize(o, box: box, source: size) {
            size = try resize.outputSize(sourceWidth: size.width, sourceHeight: size.height)
            steps.append(.resize(resize))
        }
        if o.extend, box.width > 0 || box.height > 0 {
            let target = (width: max(box.width, size.width), height: max(box.height, size.height))
            if target != size {
                let origin = o.extendGravity.origin(of: size, in: target)
                steps.append(
                    .extend(
                        top: origin.y, left: origin.x, bottom: target.height - size.height - origin.y,
                        right: target.width - size.width - origin.x, background: o.background ?? RGBA(0, 0, 0, 0)))
                size = target
            }
        }
        if let turn = QuarterTurn(rawValue: o.rotation) {
            steps.append(.rotate(turn))
            if turn != .half { size = (size.height, size.width) }
        }
        if o.blurSigma > 0 { steps.append(.blur(sigma: o.blurSigma)) }
        if o.sharpenSigma > 0 { steps.append(.sharpen(sigma: o.sharpenSigma)) }
        if let background = o.background {
            steps.append(.flatten(background: background))
        } else if !outputType.storesAlpha {
            steps.append(.flatten(background: RGBA(255, 255, 255)))
        }
        chain = ProcessingChain(steps)
        self.sourceSize = sourceSize
        outputSize = size
    }

    /// The longest side a decoder may shrink the source to before the chain runs: set when the
    /// chain starts with a resize that shrinks, keeping `reducingGap` times the scaled size
    /// (`nil`: the scaled size itself). The frame then goes to the chain with ``sourceSize`` as
    /// the size it was decoded from.
    func shrinkOnLoad(reducingGap: Double?) -> Int? {
        guard case .resize(var resize)? = chain.steps.first else { return nil }
        resize.options.reducingGap = reducingGap
        return ProcessingChain([.resize(resize)]).shrinkOnLoad(sourceWidth: sourceSize.width, sourceHeight: sourceSize.height)
    }

    /// The box of `o` in pixels (after `dpr`), for the image before its turn: the box is for
    /// the image as it ends up, so a quarter turn swaps its sides before the resize.
    static func box(_ o: ProcessingOptions) -> (width: Int, height: Int) {
        let box = (width: Int((Double(o.width) * o.dpr).rounded()), height: Int((Double(o.height) * o.dpr).rounded()))
        return o.rotation == 90 || o.rotation == 270 ? (box.height, box.width) : box
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

    /// A crop side: 0 the whole side, below 1 a fraction of it, else pixels (at most the side).
    static func cropSide(_ value: Double, of side: Int) -> Int {
        if value == 0 { return side }
        if value < 1 { return max(1, Int((value * Double(side)).rounded())) }
        return min(side, Int(value.rounded()))
    }
}

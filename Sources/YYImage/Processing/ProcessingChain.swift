/// A chain of processing steps — resize, crop, rotate, filters — as a value: build it once, apply it
/// to bitmaps or whole images, and key caches by its ``identifier``.
///
/// ```swift
/// let chain = ProcessingChain()
///     .resized(Resize(width: 400, height: 300, fit: .cover, gravity: .attention))
///     .sharpened(sigma: 0.5)
/// let thumbnail = try chain.apply(to: image)        // every frame of an animation
/// ```
///
/// Steps run in order. Every step checks its parameters and the size it would produce (at most
/// ``ProcessingLimits/maxOutputPixels``) and throws ``ImageError/invalidParameter(name:_:)`` or
/// ``ImageError/tooManyPixels(width:height:limit:)`` rather than allocate.
public struct ProcessingChain: Sendable, Hashable, Codable {
    /// The steps, first to last.
    public var steps: [ProcessingStep]

    /// A chain of `steps`.
    public init(_ steps: [ProcessingStep] = []) {
        self.steps = steps
    }

    /// A stable name of the steps and every parameter, for cache keys: equal chains give equal
    /// identifiers, and any parameter that changes the pixels changes it.
    public var identifier: String {
        steps.map(\.identifier).joined(separator: "|")
    }

    /// Whether the chain has no steps.
    public var isEmpty: Bool { steps.isEmpty }

    /// This chain with `step` appended.
    public func appending(_ step: ProcessingStep) -> ProcessingChain {
        ProcessingChain(steps + [step])
    }

    /// This chain with a resize appended.
    public func resized(_ resize: Resize) -> ProcessingChain { appending(.resize(resize)) }
    /// This chain with a crop appended.
    public func cropped(to rect: PixelRect) -> ProcessingChain { appending(.crop(rect)) }
    /// This chain with a clockwise turn appended.
    public func rotated(_ turn: QuarterTurn) -> ProcessingChain { appending(.rotate(turn)) }
    /// This chain with a Gaussian blur appended.
    public func blurred(sigma: Double) -> ProcessingChain { appending(.blur(sigma: sigma)) }
    /// This chain with an unsharp mask appended.
    public func sharpened(sigma: Double) -> ProcessingChain { appending(.sharpen(sigma: sigma)) }
    /// This chain with a grayscale conversion appended.
    public func grayscaled() -> ProcessingChain { appending(.grayscale) }

    /// `bitmap` through every step.
    public func apply(to bitmap: Bitmap) throws(ImageError) -> Bitmap {
        try apply(to: bitmap, decodedFrom: nil)
    }

    /// `bitmap` through every step, calling `checkpoint` before each one and between rounds of a
    /// long one (a resize or blur of many pixels checks about every quarter of a second): a
    /// checkpoint that throws (``ImageError/cancelled`` when a deadline has passed, say) stops the
    /// chain there.
    ///
    /// `original` is the size of the image `bitmap` was decoded from, when a decoder shrank it on
    /// load as ``shrinkOnLoad(sourceWidth:sourceHeight:)`` allows: the first resize then works
    /// out every size from the original, so the result has the size it would have from the
    /// whole decode.
    public func apply(
        to bitmap: Bitmap, decodedFrom original: (width: Int, height: Int)?, checkpoint: () throws(ImageError) -> Void = {}
    ) throws(ImageError) -> Bitmap {
        var out = bitmap
        for (index, step) in steps.enumerated() {
            try checkpoint()
            if index == 0, case .resize(let resize) = step {
                out = try resize.apply(to: out, original: original, checkpoint: checkpoint)
            } else {
                out = try step.apply(to: out, checkpoint: checkpoint)
            }
        }
        return out
    }

    /// `image` through every step: each frame of an animation, with its durations and loop count.
    /// Frames are decoded one at a time, so the decoder's limits stay in force.
    public func apply(to image: Image) throws(ImageError) -> Image {
        try apply(to: image, checkpoint: {})
    }

    /// `image` through every step, calling `checkpoint` before each frame and each step.
    public func apply(to image: Image, checkpoint: () throws(ImageError) -> Void) throws(ImageError) -> Image {
        try apply(to: image, decodedFrom: nil, checkpoint: checkpoint)
    }

    /// `image` through every step, as ``apply(to:checkpoint:)``; a still decoded smaller on load
    /// from a source of `original`'s size has every size worked out from the original, as the
    /// form for a `Bitmap` does. (Animations decode whole: their frames need no `original`.)
    public func apply(
        to image: Image, decodedFrom original: (width: Int, height: Int)?, checkpoint: () throws(ImageError) -> Void = {}
    ) throws(ImageError) -> Image {
        guard !isEmpty else { return image }
        if image.frameCount == 1 {
            return Image(
                bitmap: try apply(to: image.frame(at: 0), decodedFrom: original, checkpoint: checkpoint), type: image.type, scale: image.scale)
        }
        var frames: [Bitmap] = []
        var durations: [Double] = []
        for index in 0..<image.frameCount {
            frames.append(try apply(to: image.frame(at: index), decodedFrom: nil, checkpoint: checkpoint))
            durations.append(image.duration(at: index))
        }
        return try Image(frames: frames, durations: durations, loopCount: image.loopCount, type: image.type, scale: image.scale)
    }

    /// The longest side a decoder may shrink a `sourceWidth` × `sourceHeight` source to (the
    /// upright size), for free, before this chain runs
    /// (``ImageDecoder/Options/shrinkOnLoad``): set when the chain starts with a resize that
    /// shrinks (a crop or rotation first needs the full pixels). Give the decoded frame to
    /// ``apply(to:decodedFrom:checkpoint:)`` with the source's size.
    public func shrinkOnLoad(sourceWidth: Int, sourceHeight: Int) -> Int? {
        guard case .resize(let resize)? = steps.first else { return nil }
        return resize.shrinkOnLoad(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
    }

    /// The multiple of its size to draw a `sourceWidth` × `sourceHeight` vector source (SVG) at
    /// (``ImageDecoder/Options/vectorScale``) so that the chain's first resize keeps its detail:
    /// set when the chain starts with a resize (an enlarging one too, when it may enlarge). Give
    /// the drawn frame to ``apply(to:decodedFrom:checkpoint:)`` with the source's size.
    public func vectorScale(sourceWidth: Int, sourceHeight: Int) -> Double? {
        guard case .resize(let resize)? = steps.first else { return nil }
        guard let scale = resize.vectorScale(sourceWidth: sourceWidth, sourceHeight: sourceHeight) else { return nil }
        return resize.enlarge ? scale : min(1, scale)
    }

    /// The former name of ``shrinkOnLoad(sourceWidth:sourceHeight:)``.
    @available(*, deprecated, renamed: "shrinkOnLoad(sourceWidth:sourceHeight:)")
    public func decodingSideNeeded(sourceWidth: Int, sourceHeight: Int) -> Int? {
        shrinkOnLoad(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
    }
}

public import YYImage

extension ImageProcessors {
    /// Runs a ``ProcessingChain`` (resize, crop, rotate, blur, sharpen, round corners, grayscale…)
    /// on every frame. When the chain starts with a resize that shrinks, a still decodes smaller
    /// on load (at a power-of-two scale that keeps twice the target), and every size is still
    /// worked out from the original.
    public struct Process: ImageProcessing {
        /// The steps.
        public let chain: ProcessingChain

        /// A processor running `chain`.
        public init(_ chain: ProcessingChain) { self.chain = chain }

        public var identifier: String { "process(\(chain.identifier))" }

        /// The chain's own shrink-on-load side
        /// (``ProcessingChain/shrinkOnLoad(sourceWidth:sourceHeight:)``).
        public func shrinkOnLoad(sourceWidth: Int, sourceHeight: Int) -> Int? {
            chain.shrinkOnLoad(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        }

        /// The chain applied to every frame, durations and loop count kept.
        public func process(_ image: Image) throws(ImageError) -> Image {
            try chain.apply(to: image)
        }

        /// The chain applied to a still decoded smaller on load, its sizes from `original`.
        public func process(_ image: Image, decodedFrom original: (width: Int, height: Int)) throws(ImageError) -> Image {
            try chain.apply(to: image, decodedFrom: original)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Process {
    /// ``ImageProcessors/Process`` of a resize into a box.
    public static func resize(
        width: Int? = nil, height: Int? = nil, fit: FitMode = .inside, gravity: Gravity = .center,
        kernel: ResamplingKernel = .lanczos3
    ) -> Self {
        Self(
            ProcessingChain().resized(
                Resize(
                    width: width, height: height, fit: fit, gravity: gravity,
                    options: ResizeOptions(kernel: kernel))))
    }

    /// ``ImageProcessors/Process`` of a crop to a rectangle.
    public static func crop(_ rect: PixelRect) -> Self { Self(ProcessingChain().cropped(to: rect)) }

    /// ``ImageProcessors/Process`` of a Gaussian blur.
    public static func blur(sigma: Double) -> Self { Self(ProcessingChain().blurred(sigma: sigma)) }

    /// ``ImageProcessors/Process`` of an unsharp mask.
    public static func sharpen(sigma: Double) -> Self { Self(ProcessingChain().sharpened(sigma: sigma)) }

    /// ``ImageProcessors/Process`` of corners rounded with `radius` pixels.
    public static func roundCorners(radius: Double) -> Self { Self(ProcessingChain([.roundCorners(radius: radius)])) }

    /// ``ImageProcessors/Process`` keeping the centred circle.
    public static var circle: Self { Self(ProcessingChain([.circle])) }

    /// ``ImageProcessors/Process`` to grey.
    public static var grayscale: Self { Self(ProcessingChain().grayscaled()) }

    /// ``ImageProcessors/Process`` of any chain.
    public static func process(_ chain: ProcessingChain) -> Self { Self(chain) }
}

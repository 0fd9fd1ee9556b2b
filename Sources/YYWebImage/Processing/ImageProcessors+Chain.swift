public import YYImage

extension ImageProcessors {
    /// Runs a ``ProcessingChain`` (resize, crop, rotate, blur, sharpen, round corners, grayscale…)
    /// on every frame. When the chain starts by shrinking into a box with `inside` or `contain`,
    /// the decoder shrinks while decoding first (JPEG's DCT scaling), as ``Downsample`` does.
    public struct Process: ImageProcessing {
        /// The steps.
        public let chain: ProcessingChain

        /// A processor running `chain`.
        public init(_ chain: ProcessingChain) { self.chain = chain }

        public var identifier: String { "process(\(chain.identifier))" }

        /// The box's longest side, for a chain that starts with an `inside` or `contain` resize
        /// that does not enlarge: the scaled image never exceeds it on either side.
        public var decodingMaxPixelSize: Int? {
            guard case .resize(let resize)? = chain.steps.first, !resize.enlarge,
                resize.fit == .inside || resize.fit == .contain,
                let width = resize.width, let height = resize.height
            else { return nil }
            return max(width, height)
        }

        /// The chain applied to every frame, durations and loop count kept.
        public func process(_ image: Image) throws(ImageError) -> Image {
            try chain.apply(to: image)
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

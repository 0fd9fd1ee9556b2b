public import YYImage

/// A step applied to a decoded image before it is cached in memory and returned.
///
/// The ``identifier`` goes into the memory cache key: two processors with the same identifier
/// must give the same result.
public protocol ImageProcessing: Sendable {
    /// Names what the processor does with which parameters, e.g. `"thumbnail(120)"`.
    var identifier: String { get }
    /// The processed image, or a typed error.
    func process(_ image: Image) throws(ImageError) -> Image
    /// What the decoder can do instead, cheaper (downsample while decoding); `nil` for none.
    var decodingMaxPixelSize: Int? { get }
    /// The longest side the decoder may shrink a still of `sourceWidth` × `sourceHeight` (upright)
    /// to on load (``ImageDecoder/Options/shrinkOnLoad``) when this processor comes first; `nil`
    /// for the whole decode. The processor then gets the shrunk image through
    /// ``process(_:decodedFrom:)``.
    func shrinkOnLoad(sourceWidth: Int, sourceHeight: Int) -> Int?
    /// The processed image, from `image` decoded smaller on load from a source of `original`'s
    /// (upright) size: sizes are worked out from the original, so the result does not depend on
    /// the decode's scale.
    func process(_ image: Image, decodedFrom original: (width: Int, height: Int)) throws(ImageError) -> Image
}

extension ImageProcessing {
    /// No decoder shortcut by default.
    public var decodingMaxPixelSize: Int? { nil }

    /// No shrink-on-load by default.
    public func shrinkOnLoad(sourceWidth: Int, sourceHeight: Int) -> Int? { nil }

    /// ``process(_:)``, for a processor that never asks for a shrunk decode.
    public func process(_ image: Image, decodedFrom original: (width: Int, height: Int)) throws(ImageError) -> Image {
        try process(image)
    }
}

/// The built-in processors.
public enum ImageProcessors {
    /// Shrinks the image so that neither side exceeds `maxPixelSize`, while decoding where the
    /// codec allows (JPEG's DCT scaling) and by resampling otherwise. Animations keep every frame.
    public struct Downsample: ImageProcessing {
        /// The longest side allowed, in pixels.
        public let maxPixelSize: Int

        /// A downsampler to at most `maxPixelSize` pixels on the longest side (at least 1).
        public init(maxPixelSize: Int) { self.maxPixelSize = max(1, maxPixelSize) }

        public var identifier: String { "downsample(\(maxPixelSize))" }
        public var decodingMaxPixelSize: Int? { maxPixelSize }

        /// The decoder already shrank every frame when this processor came first; otherwise the
        /// image becomes a still of its first frame, shrunk.
        public func process(_ image: Image) throws(ImageError) -> Image {
            guard max(image.pixelWidth, image.pixelHeight) > maxPixelSize else { return image }
            return Image(bitmap: try image.frame(at: 0).downsampled(toFit: maxPixelSize), type: image.type, scale: image.scale)
        }
    }

    /// The first frame as a still, no side above `maxPixelSize`: what a list or grid shows.
    public struct Thumbnail: ImageProcessing {
        /// The longest side allowed, in pixels.
        public let maxPixelSize: Int

        /// A thumbnail of at most `maxPixelSize` pixels on the longest side (at least 1).
        public init(maxPixelSize: Int) { self.maxPixelSize = max(1, maxPixelSize) }

        public var identifier: String { "thumbnail(\(maxPixelSize))" }
        public var decodingMaxPixelSize: Int? { maxPixelSize }

        /// Frame 0, shrunk to fit.
        public func process(_ image: Image) throws(ImageError) -> Image {
            let first = try image.frame(at: 0)
            guard image.frameCount > 1 || max(first.width, first.height) > maxPixelSize else { return image }
            return Image(bitmap: first.downsampled(toFit: maxPixelSize), type: image.type, scale: image.scale)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Downsample {
    /// ``ImageProcessors/Downsample``: no side above `maxPixelSize`, shrunk while decoding.
    public static func downsample(maxPixelSize: Int) -> Self { Self(maxPixelSize: maxPixelSize) }
}

extension ImageProcessing where Self == ImageProcessors.Thumbnail {
    /// ``ImageProcessors/Thumbnail``: the first frame, no side above `maxPixelSize`.
    public static func thumbnail(maxPixelSize: Int) -> Self { Self(maxPixelSize: maxPixelSize) }
}

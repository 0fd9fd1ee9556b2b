public import Foundation

/// Encodes stills and animations as PNG/APNG, GIF, JPEG, WebP (lossy, lossless, animated), BMP,
/// ICO, ICNS, TIFF (pages), JPEG 2000, AVIF (still or animated) or JPEG XL (still or animated).
///
/// ```swift
/// var encoder = ImageEncoder(type: .webp)
/// encoder.loopCount = 0                 // forever
/// for (frame, duration) in frames { encoder.addFrame(frame, duration: duration) }
/// let data = try encoder.encode()
/// ```
///
/// Frames of different sizes are placed at the top-left of a canvas as large as the largest.
/// Formats without animation (JPEG, BMP, JPEG 2000) take the first frame; ICO and ICNS store
/// each frame as an icon entry and TIFF as a page, each at its own size. JPEG drops alpha (the colour under it is kept as is).
public struct ImageEncoder: Sendable {
    /// The format written.
    public let type: ImageType
    /// 0...1; defaults: JPEG, JPEG 2000 and JPEG XL 0.9, WebP 0.8, AVIF 0.75, others 1 (unused by
    /// lossless formats).
    public var quality: Double
    /// Lossless compression in WebP, JPEG 2000, AVIF (4:4:4, quantizer 0) and JPEG XL. Default
    /// false. Formats that are always lossless (PNG, GIF's palette aside, TIFF, BMP, ICO, ICNS)
    /// and JPEG ignore it.
    public var lossless = false
    /// TIFF's compression: LZW (the default, read everywhere) or Deflate (smaller, slower).
    public var tiffCompression = TIFFCompression.lzw
    /// Plays of an animation, 0 = forever (the default). GIF stores plays - 1 repeats. More plays
    /// than a format holds are written as the most it holds (65,536 in GIF, 65,535 in WebP,
    /// 2^32 - 1 in APNG); a negative count is `ImageError.invalidInput` at `encode()`.
    public var loopCount = 0
    /// GIF only: Floyd–Steinberg dithering when an image has more than 256 colours. Default false.
    public var dithering = false
    /// PNG only: write an alpha channel even when every pixel is opaque (by default opaque
    /// images are written as RGB, which is smaller).
    public var alwaysWritesAlpha = false
    /// Speed against size, 0...9 (clamped): PNG's deflate level (default 6), WebP's method
    /// (default 4 for stills and 0 for animations, Pillow's defaults; 9 is method 6 with the
    /// smallest-file animation search), AVIF's speed (10 - effort; default speed 6), JPEG XL's
    /// effort (1...9; default 7). `nil` keeps the defaults.
    public var effort: Int?
    /// Whether AVIF and JPEG XL split one image's encoding across the processor's cores (default
    /// true; the other formats encode on the calling thread). A server that already encodes one
    /// image per core turns it off: the threads then cost CPU time the other requests need.
    public var usesAllCores = true
    /// An ICC profile to embed (PNG iCCP, JPEG APP2, WebP ICCP, AVIF and JPEG XL `colr`); `nil`
    /// writes none, which viewers read as sRGB. AVIF and JPEG XL, which describe the colour of
    /// RGB samples, take only an RGB profile and write sRGB for any other.
    public var colorProfile: Data?
    /// EXIF data (a TIFF structure) to embed in JPEG, PNG and WebP stills and WebP animations;
    /// `nil` writes none. Its orientation tag is written as it is: set it upright (see
    /// ``ImageDecoder/exifForUprightPixels``) when the pixels were turned.
    public var exif: Data?
    /// An XMP packet to embed where ``exif`` goes; `nil` writes none.
    public var xmp: Data?
    /// The frames added so far, with their durations in seconds.
    public private(set) var frames: [(bitmap: Bitmap, duration: Double)] = []

    /// The compressions a TIFF is written with.
    public enum TIFFCompression: String, Sendable, CaseIterable {
        /// Lempel–Ziv–Welch, with the horizontal predictor.
        case lzw
        /// Deflate (zlib), with the horizontal predictor.
        case deflate
    }

    /// An encoder for `type`.
    public init(type: ImageType) {
        self.type = type
        self.quality =
            switch type {
            case .jpeg, .jpeg2000, .jpegXL: 0.9
            case .webp: 0.8
            case .avif: 0.75
            default: 1
            }
    }

    /// Adds a frame shown for `duration` seconds (negative counts as 0).
    public mutating func addFrame(_ bitmap: Bitmap, duration: Double = 0) {
        frames.append((bitmap.converted(to: .straight), max(0, duration)))
    }

    /// Adds the first frame of an encoded image.
    public mutating func addFrame(data: Data, duration: Double = 0) throws(ImageError) {
        addFrame(try ImageDecoder(data: data).frame(at: 0), duration: duration)
    }

    /// Adds the first frame of an image file.
    public mutating func addFrame(contentsOf url: URL, duration: Double = 0) throws(ImageError) {
        let data = try ImageError.readFile(atPath: url.path)
        try addFrame(data: data, duration: duration)
    }

    /// The encoded file.
    public func encode() throws(ImageError) -> Data {
        try encode(checkpoint: {})
    }

    /// The encoded file, calling `checkpoint` as the work goes: before it starts, between the
    /// frames of GIF, WebP, AVIF and JPEG XL animations, and inside libwebp (its progress hook),
    /// the one encoder that can stop early without harm.
    /// A checkpoint that throws (``ImageError/cancelled`` when a deadline has passed, say) stops
    /// the encode with its error. libaom (AVIF), libjxl, libjpeg-turbo, OpenJPEG and the PNG
    /// writers are not stopped inside an image.
    public func encode(checkpoint: () throws(ImageError) -> Void) throws(ImageError) -> Data {
        try CodecCheckpoint.with(checkpoint) { (box: CodecCheckpoint) throws(ImageError) -> Data in
            try encode(box)
        }
    }

    private func encode(_ checkpoint: CodecCheckpoint) throws(ImageError) -> Data {
        try checkpoint.check()
        guard !frames.isEmpty else { throw .invalidInput("no frames to encode") }
        guard type.isEncodable else { throw .unsupportedType(type) }
        guard loopCount >= 0 else { throw .invalidInput("a loop count of \(loopCount): give 0 (forever) or a number of plays") }
        let width = frames.map(\.bitmap.width).max()!, height = frames.map(\.bitmap.height).max()!
        guard width > 0, height > 0 else { throw .invalidInput("an image of \(width)x\(height) pixels") }
        let canvases = frames.map { ($0.bitmap.resizedCanvas(width: width, height: height), $0.duration) }
        let quality = min(1, max(0, self.quality))
        var bytes: [UInt8]
        switch type {
        case .png where canvases.count == 1:
            bytes = try PNGWriter.encode(
                canvases[0].0, withAlpha: alwaysWritesAlpha ? true : nil, level: pngLevel,
                iccProfile: colorProfile.map { [UInt8]($0) }, exif: exif.map { [UInt8]($0) },
                xmp: xmp.map { [UInt8]($0) })
        case .png:
            bytes = try APNGWriter.write(
                width: width, height: height,
                frames: canvases.map { APNGWriter.Frame(info: ImageFrameInfo(width: width, height: height, duration: $0.1), pixels: $0.0) },
                plays: loopCount, level: pngLevel)
        case .gif:
            let anyTransparent = canvases.contains { !$0.0.isOpaque }
            var gifFrames: [GIFWriter.Frame] = []
            for (canvas, duration) in canvases {
                try checkpoint.check()
                let quantized = ColorQuantizer(canvas, dithering: dithering)
                // With transparency, each frame clears itself so earlier frames never show through.
                gifFrames.append(
                    GIFWriter.Frame(
                        info: ImageFrameInfo(
                            width: width, height: height, duration: duration,
                            disposal: anyTransparent && canvases.count > 1 ? .background : .none),
                        palette: quantized.palette, indices: quantized.indices, transparentIndex: quantized.transparentIndex))
            }
            bytes = try GIFWriter.write(width: width, height: height, frames: gifFrames, plays: loopCount)
        case .jpeg:
            bytes = try TurboJPEG.encode(canvases[0].0, quality: max(1, Int((quality * 100).rounded())))
            if colorProfile != nil || exif != nil || xmp != nil {
                bytes = JPEGMetadata.inserting(
                    exif: exif.map { [UInt8]($0) }, xmp: xmp.map { [UInt8]($0) },
                    iccProfile: colorProfile.map { [UInt8]($0) }, into: bytes)
            }
        case .webp where canvases.count == 1:
            bytes = try WebPWriter.still(
                canvases[0].0, quality: quality * 100, lossless: lossless, method: webpMethod(animated: false), checkpoint: checkpoint)
            bytes = try WebPWriter.withChunks(webpMetadata, bytes)
        case .webp:
            bytes = try WebPWriter.animation(
                canvases.map { ($0.0, $0.1) }, quality: quality * 100, lossless: lossless, plays: loopCount,
                method: webpMethod(animated: true), minimizeSize: (effort ?? 0) >= 9, checkpoint: checkpoint)
            bytes = try WebPWriter.withChunks(webpMetadata, bytes)
        case .bmp:
            bytes = BMPWriter.bmp(canvases[0].0)
        case .ico:
            bytes = try BMPWriter.ico(frames.map { $0.bitmap.downsampled(toFit: 256) })
        case .icns:
            bytes = try ICNSWriter.write(frames.map(\.bitmap))
        #if LibTIFF
        case .tiff:
            // Pages keep their own sizes: a TIFF's pages are separate images.
            bytes = try TIFFWriter.write(frames.map(\.bitmap), compression: tiffCompression, alwaysWritesAlpha: alwaysWritesAlpha)
        #else
        case .tiff: throw .unsupportedType(type)
        #endif
        #if OpenJPEG
        case .jpeg2000:
            let canvas = canvases[0].0
            bytes = try JPEG2000Writer.write(canvas, quality: quality, lossless: lossless, withAlpha: alwaysWritesAlpha || !canvas.isOpaque)
        #else
        case .jpeg2000: throw .unsupportedType(type)
        #endif
        #if LibAVIF
        case .avif:
            bytes = try AVIFWriter.write(
                canvases, quality: quality, lossless: lossless,
                speed: effort.map { 10 - min(9, max(0, $0)) } ?? AVIFWriter.defaultSpeed, usesAllCores: usesAllCores,
                iccProfile: rgbColorProfile, checkpoint: checkpoint)
        #else
        case .avif: throw .unsupportedType(type)
        #endif
        #if LibJXL
        case .jpegXL:
            bytes = try JPEGXLWriter.write(
                canvases, quality: quality, lossless: lossless,
                effort: effort.map { max(1, min(9, $0)) } ?? JPEGXLWriter.defaultEffort, plays: loopCount, usesAllCores: usesAllCores,
                iccProfile: rgbColorProfile, checkpoint: checkpoint)
        #else
        case .jpegXL: throw .unsupportedType(type)
        #endif
        case .heic, .svg:
            throw .unsupportedType(type)
        }
        return Data(bytes)
    }

    /// The deflate level of PNG: `effort` 0...9 maps onto libdeflate's 1...12.
    private var pngLevel: Int {
        guard let effort else { return PNGWriter.defaultLevel }
        return [1, 2, 3, 4, 5, 6, 7, 9, 10, 12][min(9, max(0, effort))]
    }

    /// The metadata chunks a WebP file gets.
    private var webpMetadata: [(fourCC: String, payload: [UInt8])] {
        [("ICCP", colorProfile), ("EXIF", exif), ("XMP ", xmp)].compactMap { fourCC, data in data.map { (fourCC, [UInt8]($0)) } }
    }

    /// ``colorProfile`` when it describes RGB (what AVIF and JPEG XL may carry), else `nil`.
    private var rgbColorProfile: [UInt8]? {
        guard let profile = colorProfile.map({ [UInt8]($0) }), ColorTransform.space(of: profile) == .rgb else { return nil }
        return profile
    }

    /// libwebp's method 0...6 for `effort`, or Pillow's default.
    private func webpMethod(animated: Bool) -> Int {
        guard let effort else { return animated ? 0 : 4 }
        return (min(9, max(0, effort)) * 6 + 4) / 9
    }

    /// Encodes and writes the file: atomically when `url` is a regular file or a new one, in place
    /// when it is a device or a pipe (`/dev/stdout`).
    public func encode(to url: URL) throws(ImageError) {
        try ImageError.writeFile(try encode(), to: url)
    }

    /// One image as `type`.
    public static func encode(_ bitmap: Bitmap, as type: ImageType, quality: Double? = nil) throws(ImageError) -> Data {
        var encoder = ImageEncoder(type: type)
        if let quality { encoder.quality = quality }
        encoder.addFrame(bitmap)
        return try encoder.encode()
    }

    /// Every frame of a decoder (composited), with its durations and loop count, as `type`.
    public static func reencode(_ decoder: ImageDecoder, as type: ImageType, quality: Double? = nil, lossless: Bool = false) throws(ImageError)
        -> Data
    {
        var encoder = ImageEncoder(type: type)
        if let quality { encoder.quality = quality }
        encoder.lossless = lossless
        encoder.loopCount = decoder.loopCount
        for index in 0..<decoder.frameCount {
            encoder.addFrame(try decoder.frame(at: index), duration: try decoder.frameInfo(at: index).duration)
        }
        return try encoder.encode()
    }
}

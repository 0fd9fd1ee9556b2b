public import Foundation
internal import YYDispatch

/// Decodes PNG (and APNG), GIF, JPEG, WebP (still and animated), BMP, ICO, ICNS, TIFF, JPEG 2000,
/// AVIF, HEIC and JPEG XL, and draws SVG, all at once or (PNG, GIF, JPEG, WebP, AVIF, JPEG XL) as the bytes
/// arrive.
///
/// ```swift
/// let decoder = try ImageDecoder(data: data)
/// for index in 0..<decoder.frameCount {
///     let canvas = try decoder.frame(at: index)   // composited, canvas-size RGBA
///     show(canvas, for: decoder.frameInfo(at: index).duration)
/// }
/// ```
///
/// Incremental use: call `update(data:final:)` with all bytes received so far. Until the data is
/// final only frame 0 is available, decoded from what has arrived (PNG rows or Adam7 passes,
/// GIF rows, JPEG rows or progressive scans, WebP once frame 0 is whole, AVIF grid cells, JPEG XL
/// progressive passes, with what has not arrived transparent). Thread-safe: calls are serialised.
public final class ImageDecoder: Sendable {
    /// Limits and output choices.
    public struct Options: Sendable {
        /// The largest pixel count of the canvas or of any frame; larger images are refused with
        /// `ImageError.tooManyPixels` before anything is allocated. Default 2^27 (about 134
        /// million pixels, a 512 MB canvas).
        public var maxPixelCount: Int = 1 << 27
        /// The most bytes `frameCount` canvases may take together (4 bytes a pixel); frames past
        /// it are dropped (see `droppedFrameCount`). Default 1 GiB.
        public var maxTotalFrameBytes: Int = 1 << 30
        /// When set, frames come out shrunk so that neither side exceeds it (JPEG decodes
        /// smaller directly through DCT scaling). At least 1: smaller values, 0 included (which
        /// some settings use for "no limit"), count as 1.
        public var maxPixelSize: Int? {
            didSet { if let size = maxPixelSize, size < 1 { maxPixelSize = 1 } }
        }
        /// The longest side the caller needs, at least: codecs that decode smaller cheaply do so,
        /// at the smallest power-of-two scale (1/2, 1/4, 1/8) whose longest side, rounded up, is
        /// still at least this — JPEG through DCT scaling, a WebP still through libwebp's
        /// scaler, JPEG 2000 through its resolution levels, a complete, non-interlaced PNG by
        /// averaging blocks as its rows are inflated (down to 1/32); others decode at full size.
        /// Only powers of two: libjpeg-turbo's other scales (3/8, 5/8 …) alias, as the DCT scales
        /// of libvips, sharp and Pillow's `draft` avoid. The caller resizes to the exact size after,
        /// working out that size from the original (``orientedWidth``, ``orientedHeight``), not
        /// from the shrunk frame. `nil` (the default) decodes at full size.
        public var shrinkOnLoad: Int?
        /// Whether colour is converted from the embedded ICC profile (RGB or gray) to sRGB with
        /// Little CMS, as output for the web wants (default false: the stored values, as most
        /// decoders give them). CMYK JPEGs are always rendered to sRGB, through their profile when
        /// they have one.
        public var convertsToSRGB = false
        /// Straight (default) or premultiplied output.
        public var alphaMode: Bitmap.AlphaMode = .straight
        /// Whether frames are turned upright according to the file's EXIF orientation (default
        /// true: what displays and processing want; false keeps the stored pixels).
        public var appliesOrientation = true
        /// Whether a HEIC file's first embedded thumbnail is decoded in place of its primary image,
        /// when it has one (default false). Other formats ignore it.
        public var usesEmbeddedThumbnail = false
        /// The multiple of an SVG document's intrinsic size it is drawn at (default 1): a vector
        /// source drawn at the size it is wanted, not a bitmap scaled after. The canvas reports
        /// the scaled size, and the pixel limit applies to it. Other formats ignore it.
        public var vectorScale = 1.0
        /// CSS applied to an SVG document over its own styles (librsvg's user style sheet), `nil`
        /// for none. Other formats ignore it.
        public var svgStylesheet: String?

        /// The defaults.
        public init() {}
    }

    /// The options this decoder was made with.
    public let options: Options
    private let state = Locked(State())

    private struct State {
        var bytes: [UInt8] = []
        var type: ImageType?
        var isFinal = false
        var container: (any ImageContainer)?
        /// The embedded profile unless it is CMYK (whose JPEG pixels come out already sRGB),
        /// read once per parse: the profile the decoded frames are in.
        var profileOfPixels: [UInt8]?
        var frameCount = 0
        var compositor: FrameCompositor?
    }

    /// A decoder waiting for data.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// A decoder over complete data.
    /// - Throws: `ImageError` when the data is no decodable image.
    public convenience init(data: Data, options: Options = Options()) throws(ImageError) {
        self.init(options: options)
        try update(data: data, final: true)
    }

    /// Feeds all bytes received so far (each call passes the whole prefix, not just new bytes).
    /// - Parameters:
    ///   - data: every byte received so far, from the start of the file.
    ///   - final: whether `data` is the complete file.
    /// - Returns: whether the image's size and frames are known yet.
    /// - Throws: `ImageError` for data that cannot become a valid image, for data shorter than
    ///   before or whose type changed, and for calls after the data was final.
    @discardableResult
    public func update(data: Data, final: Bool) throws(ImageError) -> Bool {
        let options = self.options
        return try state.withLock { (state: inout State) throws(ImageError) -> Bool in
            guard !state.isFinal else { throw .invalidUpdate("the data was already final") }
            guard data.count >= state.bytes.count else {
                throw .invalidUpdate("data is shorter than before (\(data.count) < \(state.bytes.count) bytes)")
            }
            state.bytes = [UInt8](data)
            state.isFinal = final
            if data.count >= 32 || final {
                guard let type = ImageType(sniffing: state.bytes) else {
                    // An SVG's tag may come later than any other format's signature.
                    if !final, data.count < ImageType.svgSniffLength, ImageType.startsLikeMarkup(state.bytes) { return false }
                    throw .unknownFormat
                }
                if let known = state.type, known != type { throw .invalidUpdate("the type changed from \(known) to \(type)") }
                guard type.isDecodable else { throw .unsupportedType(type) }
                state.type = type
            }
            guard let type = state.type else { return false }
            let limits = DecodeLimits(maxPixelCount: options.maxPixelCount)
            guard let container = try Self.parse(type, state.bytes, final: final, limits: limits, options: options) else { return false }
            // Each parser checks what it allocates; the canvas is checked here once for all.
            try limits.check(width: container.canvasWidth, height: container.canvasHeight)
            state.container = container
            state.profileOfPixels = container.colorProfile.flatMap { ColorTransform.space(of: $0) == .cmyk ? nil : $0 }
            let canvasBytes = max(1, container.canvasWidth * container.canvasHeight * 4)
            state.frameCount = min(container.frames.count, max(1, options.maxTotalFrameBytes / canvasBytes))
            state.compositor = FrameCompositor(
                frames: Array(container.frames.prefix(state.frameCount)),
                canvasWidth: container.canvasWidth, canvasHeight: container.canvasHeight,
                mayHaveAlpha: container.frameMayHaveAlpha(at:))
            return true
        }
    }

    private static func parse(
        _ type: ImageType, _ bytes: [UInt8], final: Bool, limits: DecodeLimits, options: Options
    ) throws(ImageError) -> (any ImageContainer)? {
        switch type {
        case .png: try PNGContainer(bytes: bytes, isFinal: final, limits: limits)
        case .gif: try GIFContainer(bytes: bytes, isFinal: final, limits: limits)
        case .jpeg: try JPEGContainer(bytes: bytes, isFinal: final, limits: limits)
        case .webp: try WebPContainer(bytes: bytes, isFinal: final, limits: limits)
        case .bmp: try BMPContainer(bytes: bytes, isFinal: final, limits: limits)
        case .ico: try ICOContainer(bytes: bytes, isFinal: final, limits: limits)
        case .icns: try ICNSContainer(bytes: bytes, isFinal: final, limits: limits)
        #if OpenJPEG
        case .jpeg2000: try JPEG2000Container(bytes: bytes, isFinal: final, limits: limits)
        #else
        case .jpeg2000: throw .unsupportedType(type)
        #endif
        #if LibTIFF
        case .tiff: try TIFFContainer(bytes: bytes, isFinal: final, limits: limits)
        #else
        case .tiff: throw .unsupportedType(type)
        #endif
        #if LibAVIF
        case .avif: try AVIFContainer(bytes: bytes, isFinal: final, limits: limits)
        #else
        case .avif: throw .unsupportedType(type)
        #endif
        #if LibHEIF
        case .heic: try HEICContainer(bytes: bytes, isFinal: final, limits: limits, usesThumbnail: options.usesEmbeddedThumbnail)
        #else
        case .heic: throw .unsupportedType(type)
        #endif
        #if LibJXL
        case .jpegXL: try JPEGXLContainer(bytes: bytes, isFinal: final, limits: limits)
        #else
        case .jpegXL: throw .unsupportedType(type)
        #endif
        #if LibRSVG
        case .svg:
            try SVGContainer(bytes: bytes, isFinal: final, limits: limits, scale: options.vectorScale, stylesheet: options.svgStylesheet)
        #else
        case .svg: throw .unsupportedType(type)
        #endif
        }
    }

    /// The ICC profile the decoded frames are in, for an encoder to embed with them: the embedded
    /// profile, or `nil` when there is none or the frames were converted to sRGB (with
    /// `convertsToSRGB`, and always for CMYK JPEGs, which are rendered to sRGB).
    public var decodedColorProfile: Data? {
        guard !options.convertsToSRGB else { return nil }
        return state.withLock { $0.profileOfPixels.map { Data($0) } }
    }

    /// The bytes received so far.
    var originalBytes: Data { state.withLock { Data($0.bytes) } }

    /// The format, once 32 bytes (or the final data) have arrived.
    public var type: ImageType? { state.withLock { $0.type } }
    /// Whether the data is complete.
    public var isFinal: Bool { state.withLock { $0.isFinal } }
    /// The frames available: 0 before the header arrived, at most 1 before the data is final.
    public var frameCount: Int { state.withLock { $0.frameCount } }
    /// Frames dropped to stay under `Options.maxTotalFrameBytes`.
    public var droppedFrameCount: Int { state.withLock { ($0.container?.frames.count ?? 0) - $0.frameCount } }
    /// Plays of the animation; 0 = forever (GIF's stored repeat count N is reported as N + 1).
    public var loopCount: Int { state.withLock { $0.container?.loopCount ?? 0 } }
    /// Canvas width in pixels (0 while unknown), as stored (before orientation or downsampling).
    public var canvasWidth: Int { state.withLock { $0.container?.canvasWidth ?? 0 } }
    /// Canvas height in pixels (0 while unknown), as stored.
    public var canvasHeight: Int { state.withLock { $0.container?.canvasHeight ?? 0 } }
    /// The EXIF orientation stored in the file (`.up` when there is none).
    public var orientation: ImageOrientation { state.withLock { $0.container?.orientation ?? .up } }
    /// Canvas width once turned upright (the stored height for orientations 5...8).
    public var orientedWidth: Int { orientation.swapsAxes ? canvasHeight : canvasWidth }
    /// Canvas height once turned upright.
    public var orientedHeight: Int { orientation.swapsAxes ? canvasWidth : canvasHeight }
    /// The EXIF data, a TIFF structure (JPEG APP1, PNG eXIf, WebP EXIF), `nil` when there is none.
    public var exif: Data? { state.withLock { $0.container?.exif.map { Data($0) } } }
    /// ``exif`` for pixels this decoder turned upright: its orientation tag set to 1 when
    /// `appliesOrientation` is on, as it is otherwise. What to give an encoder so that the output
    /// is not turned a second time.
    public var exifForUprightPixels: Data? {
        guard let exif = state.withLock({ $0.container?.exif }) else { return nil }
        return Data(options.appliesOrientation ? EXIF.resettingOrientation(inTIFF: exif) : exif)
    }
    /// EXIF with only the copyright notice and artist of ``exif`` (what imgproxy keeps when it
    /// strips metadata), `nil` when it has neither.
    public var copyrightEXIF: Data? {
        guard let exif = state.withLock({ $0.container?.exif }) else { return nil }
        return EXIF.copyrightOnly(inTIFF: exif).map { Data($0) }
    }
    /// The XMP packet (JPEG APP1, PNG iTXt, WebP XMP), `nil` when there is none.
    public var xmp: Data? { state.withLock { $0.container?.xmp.map { Data($0) } } }
    /// The embedded ICC colour profile (JPEG APP2, PNG iCCP, WebP ICCP), `nil` when there is none.
    public var colorProfile: Data? { state.withLock { $0.container?.colorProfile.map { Data($0) } } }
    /// Bits per colour sample as the file stores them: 16 for a 16-bit PNG or TIFF, 10 or 12 for
    /// a high-bit AVIF, HEIC or JPEG, 8 for formats whose samples are never wider and for
    /// palettes; 0 while the header has not arrived. Decoded pixels are 8-bit whatever this says.
    public var bitDepth: Int { state.withLock { $0.container?.bitDepth ?? 0 } }
    /// Whether frames are drawn onto a shared canvas; false for ICO, whose entries are separate
    /// icons returned at their own sizes.
    public var compositesFrames: Bool { state.withLock { $0.container?.compositesFrames ?? true } }

    /// Placement, timing, disposal and blend of every available frame.
    public var frameInfos: [ImageFrameInfo] {
        state.withLock { Array(($0.container?.frames ?? []).prefix($0.frameCount)) }
    }

    /// Placement, timing, disposal and blend of frame `index`.
    public func frameInfo(at index: Int) throws(ImageError) -> ImageFrameInfo {
        try state.withLock { (state: inout State) throws(ImageError) -> ImageFrameInfo in
            guard let container = state.container, index >= 0, index < state.frameCount else {
                throw .frameOutOfRange(index: index, count: state.frameCount)
            }
            return container.frames[index]
        }
    }

    /// Frame `index` composited onto the canvas (canvas-size; ICO entries at their own size),
    /// then turned upright, shrunk and premultiplied as the options say. Sequential access
    /// continues from the previous canvas; random access replays from the nearest key frame.
    public func frame(at index: Int) throws(ImageError) -> Bitmap {
        try frame(at: index, keeping: options.maxPixelSize ?? options.shrinkOnLoad, checkpoint: nil)
    }

    /// Frame `index` as ``frame(at:)`` gives it, with `shrinkOnLoad` in place of the option of
    /// that name: for a caller that learns from the header how large a frame it needs, without
    /// a second decoder reading the file again.
    public func frame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        try frame(at: index, keeping: options.maxPixelSize ?? shrinkOnLoad, checkpoint: nil)
    }

    /// Frame `index` as ``frame(at:shrinkOnLoad:)`` gives it, calling `checkpoint` as it goes and
    /// stopping with what it throws: a server's deadline or a cancelled task. PNG asks it every 64
    /// rows, the other formats once before each frame they decode (each frame a composited
    /// animation replays included); libjxl cannot be stopped inside a frame without aborting.
    public func frame(
        at index: Int, shrinkOnLoad: Int?, checkpoint: () throws(ImageError) -> Void
    ) throws(ImageError) -> Bitmap {
        try CodecCheckpoint.with(checkpoint) { (box: CodecCheckpoint) throws(ImageError) -> Bitmap in
            try frame(at: index, keeping: options.maxPixelSize ?? shrinkOnLoad, checkpoint: box)
        }
    }

    private func frame(at index: Int, keeping side: Int?, checkpoint: CodecCheckpoint?) throws(ImageError) -> Bitmap {
        let bitmap = try state.withLock { (state: inout State) throws(ImageError) -> Bitmap in
            guard let container = state.container, index >= 0, index < state.frameCount else {
                throw .frameOutOfRange(index: index, count: state.frameCount)
            }
            let frames = container.frames
            let standalone =
                !container.compositesFrames
                || (frames.count == 1 && frames[0].x == 0 && frames[0].y == 0
                    && frames[0].width == container.canvasWidth && frames[0].height == container.canvasHeight)
            if standalone {
                return try container.decodeFrame(at: index, shrinkOnLoad: side, checkpoint: checkpoint)
            }
            return try state.compositor!.frame(at: index) { (i: Int) throws(ImageError) -> Bitmap in
                try container.decodeFrame(at: i, shrinkOnLoad: nil, checkpoint: checkpoint)
            }
        }
        return finish(bitmap)
    }

    /// Pages of a multi-page file: the directories of a TIFF, the representations of an ICNS
    /// icon (largest first); 1 for other files. Pages are separate images, not an animation:
    /// `frameCount` stays 1.
    public var pageCount: Int { state.withLock { $0.container?.pageCount ?? 0 } }

    /// Page `index` at its own size, turned upright, shrunk and premultiplied as the options
    /// say. Page 0 is frame 0.
    public func page(at index: Int) throws(ImageError) -> Bitmap {
        let bitmap = try state.withLock { (state: inout State) throws(ImageError) -> Bitmap in
            guard let container = state.container else { throw .frameOutOfRange(index: index, count: 0) }
            guard index >= 0, index < container.pageCount else { throw .frameOutOfRange(index: index, count: container.pageCount) }
            return try container.decodePage(at: index)
        }
        return finish(bitmap)
    }

    /// A decoded frame or page as the options ask: in sRGB, upright, shrunk, premultiplied.
    private func finish(_ bitmap: Bitmap) -> Bitmap {
        let options = self.options
        var out = bitmap
        if options.convertsToSRGB, let profile = state.withLock({ $0.profileOfPixels }) {
            out = ColorTransform.toSRGB(out.converted(to: .straight), from: profile)
        }
        if options.appliesOrientation { out = out.oriented(orientation) }
        if let maxPixelSize = options.maxPixelSize { out = out.downsampled(toFit: maxPixelSize) }
        return out.converted(to: options.alphaMode)
    }
}

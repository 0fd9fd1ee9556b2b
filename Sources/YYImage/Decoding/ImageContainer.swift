/// A parsed image file, complete or the prefix that has arrived so far: its geometry, its frames
/// and a way to decode each frame's own pixels. One per format; `ImageDecoder` drives them.
protocol ImageContainer: Sendable {
    /// The format.
    var type: ImageType { get }
    /// Canvas width in pixels.
    var canvasWidth: Int { get }
    /// Canvas height in pixels.
    var canvasHeight: Int { get }
    /// Plays of the animation, 0 = forever.
    var loopCount: Int { get }
    /// The frames found so far.
    var frames: [ImageFrameInfo] { get }
    /// The EXIF orientation stored in the file.
    var orientation: ImageOrientation { get }
    /// The embedded ICC profile, `nil` when there is none.
    var colorProfile: [UInt8]? { get }
    /// The EXIF data (a TIFF structure), `nil` when there is none.
    var exif: [UInt8]? { get }
    /// The XMP packet, `nil` when there is none.
    var xmp: [UInt8]? { get }
    /// Whether frames are drawn onto a shared canvas (animations) rather than standing alone
    /// (the entries of an ICO file).
    var compositesFrames: Bool { get }

    /// The pages of a multi-page file (TIFF directories, ICNS representations), which are not
    /// frames of an animation: frame 0 is page 0. 1 for every other file.
    var pageCount: Int { get }

    /// Bits per colour sample as the file stores them: 16 for a 16-bit PNG or TIFF, 10 or 12 for
    /// a high-bit AVIF, HEIC or JPEG, 8 for formats whose samples are never wider (GIF, WebP,
    /// BMP) and for palettes, whose entries are 8-bit whatever the index width.
    var bitDepth: Int { get }

    /// The pixels of page `index` at its own size, straight alpha (or premultiplied where the
    /// bitmap says so: TIFF, whose library premultiplies).
    func decodePage(at index: Int) throws(ImageError) -> Bitmap

    /// The pixels of frame `index` at the frame's own size, straight alpha. `shrinkOnLoad` is
    /// the longest side the caller needs, so codecs that can decode smaller (JPEG, WebP, JPEG
    /// 2000) may, at a power-of-two scale (``ShrinkOnLoad``); PNG averages blocks as it inflates.
    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap

    /// Frame `index` as ``decodeFrame(at:shrinkOnLoad:)`` gives it, stopping with the error of
    /// `checkpoint` when it throws. Codecs that can stop inside a frame ask it as they go (libpng
    /// between rows); the others ask it once, before they start.
    func decodeFrame(at index: Int, shrinkOnLoad: Int?, checkpoint: CodecCheckpoint?) throws(ImageError) -> Bitmap

    /// Whether frame `index` may contain transparent pixels (false lets the compositor start a
    /// replay there). Decoding is not needed to answer.
    func frameMayHaveAlpha(at index: Int) -> Bool
}

extension ImageContainer {
    var compositesFrames: Bool { true }
    var orientation: ImageOrientation { .up }
    var colorProfile: [UInt8]? { nil }
    var exif: [UInt8]? { nil }
    var xmp: [UInt8]? { nil }
    func frameMayHaveAlpha(at index: Int) -> Bool { true }
    var pageCount: Int { 1 }
    var bitDepth: Int { 8 }
    func decodeFrame(at index: Int, shrinkOnLoad: Int?, checkpoint: CodecCheckpoint?) throws(ImageError) -> Bitmap {
        try checkpoint?.check()
        return try decodeFrame(at: index, shrinkOnLoad: shrinkOnLoad)
    }
    func decodePage(at index: Int) throws(ImageError) -> Bitmap {
        guard index == 0 else { throw .frameOutOfRange(index: index, count: 1) }
        return try decodeFrame(at: 0, shrinkOnLoad: nil)
    }
}

/// The limits every container parser checks before it allocates.
struct DecodeLimits: Sendable {
    /// The largest pixel count of the canvas or any frame.
    var maxPixelCount: Int

    /// Throws when a `width` x `height` image is over the limit (a side of 0 counting as 1), or
    /// has a negative side.
    func check(width: Int, height: Int) throws(ImageError) {
        guard width >= 0, height >= 0 else { throw .tooManyPixels(width: width, height: height, limit: maxPixelCount) }
        // A side of 0 counts as 1, so that an empty image claiming a billion rows is over the
        // limit too: a decoder may loop over, or allocate a pointer for, every row it claims.
        let (count, overflow) = max(width, 1).multipliedReportingOverflow(by: max(height, 1))
        if overflow || count > maxPixelCount {
            throw .tooManyPixels(width: width, height: height, limit: maxPixelCount)
        }
    }
}

/// What an animation player needs from an image: frames, their durations and the loop count.
/// `Image`, `FrameImage` and `SpriteSheetImage` conform (YYAnimatedImage in YYKit).
public protocol AnimatedImage: Sendable {
    /// The number of frames (1 for a still image).
    var frameCount: Int { get }
    /// Plays of the animation, 0 = forever.
    var loopCount: Int { get }
    /// Bytes one decoded frame takes (what a frame buffer budgets for).
    var bytesPerFrame: Int { get }
    /// Frame `index`, ready to show.
    func frame(at index: Int) throws(ImageError) -> Bitmap
    /// How long frame `index` shows, in seconds, with the image's `FrameDurationRule` applied.
    func duration(at index: Int) -> Double
    /// For sprite sheets: the part of the sheet frame `index` shows, in unit coordinates (0...1);
    /// `nil` for images whose frames are whole pictures.
    func contentsRect(at index: Int) -> UnitRect?
    /// What a player shows for frame `index`: by default `frame(at:)` whole; sprite sheets give
    /// the sheet and the frame's rectangle instead of cutting the sprite out.
    func contents(at index: Int) throws(ImageError) -> FrameContents
    /// Bytes decoding a frame needs besides the frame itself (a GIF's or APNG's compositing
    /// canvas); a frame buffer counts them in its budget. 0 by default.
    var decodingScratchBytes: Int { get }
}

extension AnimatedImage {
    /// 0: decoding a frame needs nothing but the frame.
    public var decodingScratchBytes: Int { 0 }

    /// `nil`: frames are whole pictures.
    public func contentsRect(at index: Int) -> UnitRect? { nil }

    /// The whole of `frame(at:)`.
    public func contents(at index: Int) throws(ImageError) -> FrameContents {
        FrameContents(bitmap: try frame(at: index), contentsRect: nil)
    }
}

/// What to show for one frame: a bitmap, and for sprite sheets the part of it that is the frame.
public struct FrameContents: Sendable, Equatable {
    /// The picture: the frame itself, or the whole sprite sheet.
    public var bitmap: Bitmap
    /// The part of `bitmap` to show, in unit coordinates; `nil` for all of it.
    public var contentsRect: UnitRect?

    /// Contents to show.
    public init(bitmap: Bitmap, contentsRect: UnitRect? = nil) {
        self.bitmap = bitmap
        self.contentsRect = contentsRect
    }

    /// The pixels to show: `bitmap` cropped to `contentsRect` (the part outside it is
    /// transparent), or `bitmap` itself.
    public func visibleBitmap() -> Bitmap {
        guard let rect = contentsRect else { return bitmap }
        // Unit coordinates outside 0...1 (or NaN, or infinite) are clamped into it first: the
        // rectangle is a caller's, and its pixels must fit an Int.
        func pixels(_ unit: Double, of size: Int) -> Int { unit.isNaN ? 0 : Int((min(max(unit, 0), 1) * Double(size)).rounded()) }
        let pixelRect = PixelRect(
            x: pixels(rect.x, of: bitmap.width), y: pixels(rect.y, of: bitmap.height),
            width: pixels(rect.width, of: bitmap.width), height: pixels(rect.height, of: bitmap.height))
        return bitmap.cropped(to: pixelRect)
    }

    /// Bytes a frame buffer counts for these contents: a sprite sheet is shared by every frame
    /// and owned by its image, so it counts nothing.
    var bufferedByteCount: Int { contentsRect == nil ? bitmap.byteCount : 0 }
}

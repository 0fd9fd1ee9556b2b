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
}

extension AnimatedImage {
    /// `nil`: frames are whole pictures.
    public func contentsRect(at index: Int) -> UnitRect? { nil }
}

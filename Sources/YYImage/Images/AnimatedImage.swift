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

/// A rectangle in unit coordinates of an image (0...1 on both axes, top-left origin).
public struct UnitRect: Sendable, Equatable {
    /// Left edge, 0...1.
    public var x: Double
    /// Top edge, 0...1.
    public var y: Double
    /// Width, 0...1.
    public var width: Double
    /// Height, 0...1.
    public var height: Double

    /// A unit rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A rectangle in pixels (top-left origin).
public struct PixelRect: Sendable, Equatable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A pixel rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

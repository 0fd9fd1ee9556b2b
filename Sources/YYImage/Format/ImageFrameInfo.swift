/// What happens to a frame's rectangle after the frame has been shown.
public enum FrameDisposal: String, Sendable, Codable {
    /// Leave the canvas as it is.
    case none
    /// Clear the frame's rectangle to transparent black.
    case background
    /// Restore the frame's rectangle to what it was before the frame was drawn.
    case previous
}

/// How a frame is drawn onto the canvas.
public enum FrameBlend: String, Sendable, Codable {
    /// Replace the rectangle's pixels, alpha included.
    case source
    /// Alpha-composite the frame over the canvas (straight-alpha "over").
    case over
}

/// The placement and timing of one frame of an image, in canvas pixels (top-left origin).
public struct ImageFrameInfo: Sendable, Equatable, Codable {
    /// Left edge on the canvas.
    public var x: Int
    /// Top edge on the canvas.
    public var y: Int
    /// Width of the frame's own pixels.
    public var width: Int
    /// Height of the frame's own pixels.
    public var height: Int
    /// How long the frame shows, in seconds, as stored in the file (no minimum applied; see
    /// `FrameDurationRule`).
    public var duration: Double
    /// What happens to the frame's rectangle after it has been shown.
    public var disposal: FrameDisposal
    /// How the frame is drawn.
    public var blend: FrameBlend

    /// A frame description.
    public init(
        x: Int = 0, y: Int = 0, width: Int, height: Int, duration: Double = 0,
        disposal: FrameDisposal = .none, blend: FrameBlend = .source
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.duration = duration
        self.disposal = disposal
        self.blend = blend
    }

    /// Whether the frame covers the whole of a `width` x `height` canvas.
    func covers(width canvasWidth: Int, height canvasHeight: Int) -> Bool {
        x <= 0 && y <= 0 && x + width >= canvasWidth && y + height >= canvasHeight
    }
}

/// The rule that lengthens frames too short to be meant: browsers show a frame of under 11 ms
/// for 100 ms, and so does YYImage. Applied by `Image`, `FrameImage` and `SpriteSheetImage` to
/// every format; `ImageDecoder` reports the stored durations untouched.
public struct FrameDurationRule: Sendable, Equatable, Codable {
    /// Durations below this (seconds) are replaced.
    public var threshold: Double
    /// What they are replaced with (seconds).
    public var replacement: Double

    /// Frames under 11 ms show for 100 ms (WebKit, Firefox, YYImage).
    public static let `default` = FrameDurationRule(threshold: 0.011, replacement: 0.1)
    /// Durations as stored.
    public static let none = FrameDurationRule(threshold: 0, replacement: 0)

    /// A rule.
    public init(threshold: Double, replacement: Double) {
        self.threshold = threshold
        self.replacement = replacement
    }

    /// The duration to show a frame stored with `duration` seconds.
    public func apply(to duration: Double) -> Double {
        duration < threshold ? replacement : duration
    }
}

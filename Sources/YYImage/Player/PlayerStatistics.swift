/// What a player has shown, and its frame buffer's counters.
public struct PlayerStatistics: Sendable, Equatable {
    /// Frames shown.
    public var framesShown = 0
    /// Frames passed over because their time had passed (`.skip`).
    public var framesSkipped = 0
    /// Frames shown later than the player's `lateTolerance`.
    public var lateFrames = 0
    /// Frames that could not be decoded (the previous one stayed).
    public var framesFailed = 0
    /// The largest delay of a shown frame after its due time.
    public var maximumLateness: Duration = .zero
    /// The shared frame buffer's counters.
    public var buffer = FrameBufferStatistics()
}

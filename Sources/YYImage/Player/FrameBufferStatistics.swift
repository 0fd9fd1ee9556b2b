/// What a frame buffer has done and holds.
public struct FrameBufferStatistics: Sendable, Equatable {
    /// Frames decoded (counted when a decode starts).
    public var decodes = 0
    /// Frames asked for that were buffered.
    public var hits = 0
    /// Frames asked for that had to be waited for.
    public var misses = 0
    /// Decodes that failed.
    public var failures = 0
    /// Frames held now.
    public var framesHeld = 0
    /// Bytes held now.
    public var bytesHeld = 0
    /// The most bytes held at once.
    public var peakBytes = 0
    /// The budget in force (the largest of the players'), in bytes.
    public var budget = 0
    /// Frames the budget allows now.
    public var capacity = 0
}

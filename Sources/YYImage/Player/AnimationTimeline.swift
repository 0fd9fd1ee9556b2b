import YYDispatch

/// When each frame of an animation shows: a pure value, no clock inside.
///
/// Frame durations become whole nanoseconds once, and their prefix sums are kept, so "which frame
/// at elapsed time t" and "when is the next change" are answered from one start instant with
/// integer arithmetic: nothing is added up frame after frame, so nothing drifts. Frame `i` of loop
/// `n` starts at exactly `n × loopDuration + start(i)` of media time.
///
/// Media time is elapsed time multiplied by ``rate``; at rate 1 the two are the same.
///
/// ```swift
/// let timeline = AnimationTimeline(image: gif)
/// let now = timeline.position(at: .milliseconds(250))   // frame, loop, next change
/// ```
public struct AnimationTimeline: Sendable, Equatable {
    /// What the timeline says about one instant.
    public struct Position: Sendable, Equatable {
        /// The frame showing.
        public var frameIndex: Int
        /// The play it belongs to, from 0.
        public var loop: Int
        /// Whether every loop has been played: the last frame stays.
        public var isFinished: Bool
        /// Elapsed time (from the start, at the timeline's rate) of the next frame change, or `nil`
        /// when nothing changes any more (finished, or a still image).
        public var nextChange: Duration?
    }

    /// The shortest time a frame is given: a loop of zero-length frames would otherwise make a
    /// player spin. Shorter durations (after the image's `FrameDurationRule`) are raised to it.
    public static let minimumFrameDuration: Duration = .milliseconds(1)
    /// The playback rates accepted; others are clamped into this range (NaN means 1).
    public static let rateRange: ClosedRange<Double> = 1.0 / 64...64

    /// Each frame's duration in nanoseconds.
    public let frameNanoseconds: [Int64]
    /// `frameStarts[i]`: nanoseconds of media time from the start of a loop to frame `i`;
    /// one more entry than there are frames, the last being the loop's duration.
    let frameStarts: [Int64]
    /// Plays of the animation, 0 = forever.
    public let loopCount: Int
    /// Media time per unit of elapsed time: 2 plays twice as fast.
    public let rate: Double

    /// A timeline of `durations` (seconds; negative, NaN or too short values are raised to
    /// ``minimumFrameDuration``) played `loopCount` times (0 = forever) at `rate`.
    public init(durations: [Double], loopCount: Int, rate: Double = 1) {
        let minimum = Self.nanoseconds(Self.minimumFrameDuration)
        var nanoseconds: [Int64] = []
        nanoseconds.reserveCapacity(durations.count)
        for seconds in durations {
            // NaN fails the comparison and becomes the minimum; a day caps absurd values.
            let clamped = seconds > 0 ? min(seconds, 86_400) : 0
            nanoseconds.append(max(minimum, Int64((clamped * 1e9).rounded())))
        }
        if nanoseconds.isEmpty { nanoseconds = [minimum] }
        var starts: [Int64] = [0]
        starts.reserveCapacity(nanoseconds.count + 1)
        for duration in nanoseconds { starts.append(Self.sum(starts[starts.count - 1], duration)) }
        self.frameNanoseconds = nanoseconds
        self.frameStarts = starts
        self.loopCount = max(0, loopCount)
        self.rate = Self.clampedRate(rate)
    }

    /// The timeline of an image: its durations (its `FrameDurationRule` already applied) and its
    /// loop count unless `loopCount` overrides it.
    public init(image: some AnimatedImage, loopCount: Int? = nil, rate: Double = 1) {
        let durations = (0..<max(1, image.frameCount)).map { image.duration(at: $0) }
        self.init(durations: durations, loopCount: loopCount ?? image.loopCount, rate: rate)
    }

    /// The same frames at another rate.
    public func withRate(_ rate: Double) -> AnimationTimeline {
        AnimationTimeline(
            frameNanoseconds: frameNanoseconds, frameStarts: frameStarts,
            loopCount: loopCount, rate: Self.clampedRate(rate))
    }

    /// The same frames played `loopCount` times (0 = forever).
    public func withLoopCount(_ loopCount: Int) -> AnimationTimeline {
        AnimationTimeline(
            frameNanoseconds: frameNanoseconds, frameStarts: frameStarts,
            loopCount: max(0, loopCount), rate: rate)
    }

    private init(frameNanoseconds: [Int64], frameStarts: [Int64], loopCount: Int, rate: Double) {
        self.frameNanoseconds = frameNanoseconds
        self.frameStarts = frameStarts
        self.loopCount = loopCount
        self.rate = rate
    }

    /// The number of frames.
    public var frameCount: Int { frameNanoseconds.count }

    /// One play of every frame, in media time.
    public var loopDuration: Duration { .nanoseconds(loopNanoseconds) }

    var loopNanoseconds: Int64 { frameStarts[frameStarts.count - 1] }

    /// Where the animation is `elapsed` after its start (negative elapsed times count as 0).
    public func position(at elapsed: Duration) -> Position {
        position(atMedia: mediaNanoseconds(elapsed: elapsed))
    }

    /// Where the animation is at `media` nanoseconds of media time.
    func position(atMedia media: Int64) -> Position {
        let media = max(0, media)
        let loop = media / loopNanoseconds
        if loopCount > 0, loop >= loopCount {
            return Position(frameIndex: frameCount - 1, loop: loopCount - 1, isFinished: true, nextChange: nil)
        }
        let offset = media - loop * loopNanoseconds
        let index = frameIndex(atOffset: offset)
        // One frame changes only when the last play ends; forever, never.
        let next: Int64? =
            frameCount > 1
            ? Self.sum(loop * loopNanoseconds, frameStarts[index + 1])
            : loopCount > 0 ? Self.product(Int64(loopCount), loopNanoseconds) : nil
        return Position(
            frameIndex: index, loop: Int(loop), isFinished: false,
            nextChange: next.map { elapsed(forMedia: $0) })
    }

    /// Elapsed time at which frame `index` of play `loop` starts.
    public func start(ofFrame index: Int, loop: Int = 0) -> Duration {
        elapsed(forMedia: mediaStart(ofFrame: index, loop: loop))
    }

    /// Media nanoseconds at which frame `index` of play `loop` starts.
    func mediaStart(ofFrame index: Int, loop: Int) -> Int64 {
        let index = min(max(0, index), frameCount - 1)
        return Self.sum(Self.product(Int64(max(0, loop)), loopNanoseconds), frameStarts[index])
    }

    /// The frame whose interval holds `offset` (0 ≤ offset < loop duration): binary search over
    /// the prefix sums.
    private func frameIndex(atOffset offset: Int64) -> Int {
        var low = 0
        var high = frameCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if frameStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    // MARK: Elapsed time ↔ media time

    /// Media nanoseconds after `elapsed` of playback at ``rate`` (rounded down).
    func mediaNanoseconds(elapsed: Duration) -> Int64 {
        let nanoseconds = Self.nanoseconds(elapsed)
        if rate == 1 { return nanoseconds }
        return Self.clamped((Double(nanoseconds) * rate).rounded(.down))
    }

    /// The first elapsed time at which media time reaches `media` nanoseconds (rounded up, so
    /// that `position(at:)` of the result is already the new frame).
    func elapsed(forMedia media: Int64) -> Duration {
        if rate == 1 { return .nanoseconds(media) }
        // Media time past what the bound's elapsed time reaches is never reached: say the bound.
        guard media <= mediaNanoseconds(elapsed: .nanoseconds(Self.bound)) else { return .nanoseconds(Self.bound) }
        var wall = Self.clamped((Double(media) / rate).rounded(.up))
        while mediaNanoseconds(elapsed: .nanoseconds(wall)) < media { wall += 1 }
        return .nanoseconds(wall)
    }

    // MARK: Arithmetic that cannot trap

    /// The largest elapsed or media time in nanoseconds (146 years): a loop count of `Int.max`,
    /// an elapsed time of centuries or a rate of 64 saturates here instead of overflowing.
    static let bound = Int64.max / 2

    static func nanoseconds(_ duration: Duration) -> Int64 {
        min(max(duration.saturatingNanoseconds, -bound), bound)
    }

    /// `value` (already whole) as nanoseconds within `-bound...bound`.
    private static func clamped(_ value: Double) -> Int64 {
        value.isNaN ? 0 : Int64(min(max(value, -Double(bound)), Double(bound)))
    }

    /// `a × b` for non-negative operands, saturating at `Int64.max`.
    private static func product(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : value
    }

    /// `a + b` for non-negative operands, saturating at `Int64.max`.
    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : value
    }

    static func clampedRate(_ rate: Double) -> Double {
        rate.isNaN ? 1 : min(max(rate, rateRange.lowerBound), rateRange.upperBound)
    }
}

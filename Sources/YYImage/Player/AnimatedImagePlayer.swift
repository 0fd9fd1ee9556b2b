public import YYDispatch  // public: players are MemoryPressureHandling

/// Plays an `AnimatedImage`: the engine of YYAnimatedImageView, without UIKit.
///
/// The player sleeps until the next frame is due, never polls, and does not wake while nothing
/// changes. On the continuous clock it sleeps on the process's player timer thread and shows a
/// buffered frame from there; with other clocks (a test clock) it sleeps in a task. Frame times
/// come from an ``AnimationTimeline`` measured from one start instant, so they never drift.
/// Frames come from a buffer shared by every player of the same image object (ten players of one
/// image decode each frame once), filled ahead by one background decoder within a byte budget.
///
/// ```swift
/// let player = AnimatedImagePlayer(image: try Image(contentsOfFile: "cube.gif"))
/// player.play()
/// for await event in player.events() {
///     if case .frame(let change) = event { show(change.contents) }
/// }
/// ```
///
/// Generic over its clock: real playback uses `ContinuousClock`; tests inject a test clock.
/// Thread-safe; no user code runs under its lock.
public final class AnimatedImagePlayer<C: Clock>: Sendable where C.Duration == Duration {
    /// A frame the player started showing.
    public struct FrameChange: Sendable {
        /// The frame's index.
        public let index: Int
        /// The play it belongs to, from 0.
        public let loop: Int
        /// What to show.
        public let contents: FrameContents
        /// When the timeline had it due (after any delay `.hold` added before it).
        public let dueAt: C.Instant
        /// When the player had it ready to show.
        public let shownAt: C.Instant
    }

    /// What the player reports to ``events(bufferingPolicy:)`` and to observers.
    public enum Event: Sendable {
        /// A new frame shows.
        case frame(FrameChange)
        /// Every loop has played; the last frame stays.
        case finished
    }

    /// Whether and how the player plays.
    public enum Status: Sendable, Equatable {
        /// Not playing; `play()` starts from frame 0.
        case stopped
        /// Playing.
        case playing
        /// Paused; `play()` continues where it left off.
        case paused
        /// Every loop has played; `play()` starts again from frame 0.
        case finished
    }

    /// The image played.
    public let image: any AnimatedImage
    /// The clock frames are timed by.
    public let clock: C
    /// What happens when a frame shows late.
    public let latenessPolicy: PlayerLatenessPolicy
    /// How late a frame may show before it counts as late (and, under `.hold`, delays the rest).
    /// Wake-up jitter below it neither counts nor shifts anything.
    public let lateTolerance: Duration

    /// The frame buffer shared with the image's other players.
    let buffer: FrameBuffer
    /// Whether the clock is the continuous clock, whose players sleep on the timer thread.
    let usesTimerThread = C.self == ContinuousClock.self
    let state: Locked<Playback>

    /// The player's mutable state, all under one lock.
    struct Playback: Sendable {
        var timeline: AnimationTimeline
        var loopCountOverride: Int?
        var status = Status.stopped
        /// The instant of media time 0 while playing.
        var origin: C.Instant?
        /// Media nanoseconds reached when not playing.
        var pausedMedia: Int64 = 0
        /// The frame showing, as a sequence number (`loop × frameCount + index`), and what it shows.
        var shownSequence: Int?
        var shownContents: FrameContents?
        /// The frame a start or a seek shows first, until it is shown: a seek shows it even when
        /// paused, and under `.hold` it is shown however late its decode makes it.
        var firstSequence: Int?
        /// Bumped by every change of plan, so that a step begun under an older plan does nothing.
        var generation = 0
        /// The pending wake-up of the current plan.
        var wake: PlayerWake?
        var bufferToken: UInt64?
        var budget: Int
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:] { didSet { updateListeners() } }
        var observers: [Int: @Sendable (Event) -> Void] = [:] { didSet { updateListeners() } }
        /// Everyone to tell about an event: kept as the tables change, so that telling one of
        /// each frame copies nothing.
        private(set) var listeners = PlayerListeners<Event>()
        var nextListener = 0
        var statistics = PlayerStatistics()

        /// Starts a new plan: steps begun under older ones do nothing. Returns the generation and
        /// the wake-up it replaces.
        mutating func newPlan() -> Plan {
            generation += 1
            defer { wake = nil }
            return Plan(generation: generation, replaced: wake)
        }

        private mutating func updateListeners() {
            listeners = PlayerListeners(subscribers: Array(subscribers.values), observers: Array(observers.values))
        }
    }

    /// A player of `image` timed by `clock`.
    /// - Parameters:
    ///   - image: any animated image: ``Image``, ``FrameImage``, ``SpriteSheetImage``.
    ///   - clock: what the player reads and sleeps by (a test clock in tests).
    ///   - latenessPolicy: `.hold` (YYKit's: a late frame delays the rest) or `.skip` (keep to the
    ///     clock, skipping frames whose time has passed).
    ///   - bufferBudget: bytes of decoded frames to keep; `nil` for the automatic budget
    ///     (``FrameBufferBudget/automatic()``). Players of one image share one buffer, sized by the
    ///     largest of their budgets.
    ///   - lateTolerance: see ``lateTolerance``.
    public init(
        image: any AnimatedImage, clock: C, latenessPolicy: PlayerLatenessPolicy = .hold,
        bufferBudget: Int? = nil, lateTolerance: Duration = .milliseconds(4)
    ) {
        self.image = image
        self.clock = clock
        self.latenessPolicy = latenessPolicy
        self.lateTolerance = max(.zero, lateTolerance)
        self.buffer = FrameBuffer.shared(for: image)
        self.state = Locked(
            Playback(
                timeline: AnimationTimeline(image: image),
                budget: bufferBudget ?? FrameBufferBudget.automatic()))
    }

    deinit {
        let (wake, token, subscribers) = state.withLock { state in
            (state.wake, state.bufferToken, Array(state.subscribers.values))
        }
        wake?.cancel()
        if let token { buffer.detach(token) }
        for subscriber in subscribers { subscriber.finish() }
    }

    // MARK: Observing

    /// Frame changes and the end of playback, from now on. Each call gives a new stream; it ends
    /// when the player is released or the consumer stops listening. By default a consumer slower
    /// than the animation gets the newest events (a display wants the frame of now, not a queue).
    public func events(bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .bufferingNewest(8)) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state in
            state.nextListener += 1
            state.subscribers[state.nextListener] = continuation
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `observer` with every event from now on, on the thread that times the player (the
    /// process's player timer thread for the continuous clock; a task for other clocks), at the
    /// moment the frame changes: no other task is woken for it. Keep it short and hand heavy
    /// work off. Returns an id for ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (Event) -> Void) -> Int {
        state.withLock { state in
            state.nextListener += 1
            state.observers[state.nextListener] = observer
            return state.nextListener
        }
    }

    /// Stops calling an observer.
    public func removeObserver(_ id: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: id) }
    }

    /// Whether and how it plays.
    public var status: Status { state.withLock { $0.status } }

    /// What shows now (`nil` before the first frame).
    public var currentContents: FrameContents? { state.withLock { $0.shownContents } }

    /// The play the current frame belongs to, from 0.
    public var currentLoop: Int {
        state.withLock { state in state.shownSequence.map { $0 / state.timeline.frameCount } ?? 0 }
    }

    /// The frame showing. Setting it shows that frame now, in the current play, and continues
    /// from there if playing (out-of-range values are clamped).
    public var currentFrameIndex: Int {
        get { state.withLock { state in state.shownSequence.map { $0 % state.timeline.frameCount } ?? 0 } }
        set { seek(toFrame: newValue) }
    }

    /// Counters, with the shared buffer's.
    public var statistics: PlayerStatistics {
        var statistics = state.withLock { $0.statistics }
        statistics.buffer = buffer.statistics
        return statistics
    }

    // MARK: Settings

    /// Plays of the animation, 0 = forever; `nil` (the default) for the image's own count.
    public var loopCountOverride: Int? {
        get { state.withLock { $0.loopCountOverride } }
        set {
            retime { state in
                state.loopCountOverride = newValue
                return state.timeline.withLoopCount(newValue ?? image.loopCount)
            }
        }
    }

    /// The playback rate: 2 plays twice as fast (clamped to ``AnimationTimeline/rateRange``).
    /// Changing it keeps the current position.
    public var rate: Double {
        get { state.withLock { $0.timeline.rate } }
        set { retime { state in state.timeline.withRate(newValue) } }
    }

    /// The bytes of decoded frames this player wants kept.
    public var bufferBudget: Int {
        get { state.withLock { $0.budget } }
        set {
            let token = state.withLock { state -> UInt64? in
                state.budget = max(0, newValue)
                return state.bufferToken
            }
            if let token { buffer.setBudget(max(0, newValue), for: token) }
        }
    }

    /// The timeline in force (durations, loop count, rate).
    public var timeline: AnimationTimeline { state.withLock { $0.timeline } }

    // MARK: Control

    /// Starts or resumes playback. After `stop()` or the last loop it starts from frame 0;
    /// after `pause()` it continues with no jump.
    public func play() {
        let now = clock.now
        let plan = state.withLock { state -> Plan? in
            switch state.status {
            case .playing: return nil
            case .stopped, .finished:
                state.pausedMedia = 0
                state.shownSequence = nil
            case .paused: break
            }
            state.status = .playing
            state.origin = now.advanced(by: .zero - state.timeline.elapsed(forMedia: state.pausedMedia))
            if state.shownSequence == nil {
                let position = state.timeline.position(atMedia: state.pausedMedia)
                state.firstSequence = position.loop * state.timeline.frameCount + position.frameIndex
            }
            return state.newPlan()
        }
        guard let plan else { return }
        _ = attachToBuffer()
        schedule(plan)
    }

    /// Holds the current frame; `play()` continues from the same point of it.
    public func pause() {
        let now = clock.now
        let plan = state.withLock { state -> Plan? in
            guard state.status == .playing, let origin = state.origin else { return nil }
            state.pausedMedia = state.timeline.mediaNanoseconds(elapsed: origin.duration(to: now))
            state.origin = nil
            state.status = .paused
            return state.newPlan()
        }
        plan?.replaced?.cancel()
    }

    /// Stops playback (the next `play()` starts from frame 0) and gives up this player's share of
    /// the frame buffer: nothing more is decoded for it.
    public func stop() {
        let (plan, token) = state.withLock { state -> (Plan, UInt64?) in
            state.status = .stopped
            state.origin = nil
            state.pausedMedia = 0
            state.firstSequence = nil
            defer { state.bufferToken = nil }
            return (state.newPlan(), state.bufferToken)
        }
        plan.replaced?.cancel()
        if let token { buffer.detach(token) }
    }

    /// Shows frame `index` of the current play now (out-of-range values are clamped), and
    /// continues from it if playing.
    public func seek(toFrame index: Int) {
        let now = clock.now
        let (plan, index) = state.withLock { state -> (Plan, Int) in
            let frameCount = state.timeline.frameCount
            let index = min(max(0, index), frameCount - 1)
            let loop = state.shownSequence.map { $0 / frameCount } ?? 0
            let media = state.timeline.mediaStart(ofFrame: index, loop: loop)
            state.shownSequence = nil
            state.firstSequence = loop * frameCount + index
            if state.status == .playing {
                state.origin = now.advanced(by: .zero - state.timeline.elapsed(forMedia: media))
            } else {
                state.pausedMedia = media
                if state.status != .paused { state.status = .paused }
            }
            return (state.newPlan(), index)
        }
        buffer.move(attachToBuffer(), to: index, jumped: true)
        schedule(plan)
    }

    /// Drops buffered frames but the current and next; the buffer regrows after a cool-down.
    /// Shared by every player of the image.
    public func trim() {
        buffer.trim()
    }

    // MARK: Playing

    /// Replaces the timeline, keeping the media position, and restarts the schedule.
    func retime(_ change: (inout Playback) -> AnimationTimeline) {
        let now = clock.now
        let plan = state.withLock { state in
            let media = state.origin.map { state.timeline.mediaNanoseconds(elapsed: $0.duration(to: now)) } ?? state.pausedMedia
            state.timeline = change(&state)
            if state.origin != nil {
                state.origin = now.advanced(by: .zero - state.timeline.elapsed(forMedia: media))
            } else {
                state.pausedMedia = media
            }
            return state.newPlan()
        }
        schedule(plan)
    }

    /// This player's token in the buffer, registering it first if it has none.
    func attachToBuffer() -> UInt64 {
        if let token = state.withLock({ $0.bufferToken }) { return token }
        let token = buffer.attach(budget: state.withLock { $0.budget })
        let kept = state.withLock { state -> UInt64 in
            if let existing = state.bufferToken { return existing }
            state.bufferToken = token
            return token
        }
        if kept != token { buffer.detach(token) }  // another call attached first
        return kept
    }

}

extension AnimatedImagePlayer: MemoryPressureHandling {
    /// Trims the shared frame buffer (register players with a `MemoryPressureMonitor`).
    public func handleMemoryPressure() { trim() }
}

extension AnimatedImagePlayer where C == ContinuousClock {
    /// A player timed by the continuous clock.
    public convenience init(image: any AnimatedImage, latenessPolicy: PlayerLatenessPolicy = .hold, bufferBudget: Int? = nil) {
        self.init(image: image, clock: ContinuousClock(), latenessPolicy: latenessPolicy, bufferBudget: bufferBudget)
    }
}

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
    private let usesTimerThread = C.self == ContinuousClock.self
    private let state: Locked<Playback>

    /// The player's mutable state, all under one lock.
    private struct Playback: Sendable {
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
        var wake: Wake?
        var bufferToken: UInt64?
        var budget: Int
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:] { didSet { updateListeners() } }
        var observers: [Int: @Sendable (Event) -> Void] = [:] { didSet { updateListeners() } }
        /// Everyone to tell about an event: kept as the tables change, so that telling one of
        /// each frame copies nothing.
        private(set) var listeners = Listeners()
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
            listeners = Listeners(subscribers: Array(subscribers.values), observers: Array(observers.values))
        }
    }

    /// Subscribers and observers, taken out of the lock to be told.
    private struct Listeners {
        var subscribers: [AsyncStream<Event>.Continuation] = []
        var observers: [@Sendable (Event) -> Void] = []

        func tell(_ event: Event) {
            for subscriber in subscribers { subscriber.yield(event) }
            for observer in observers { observer(event) }
        }
    }

    /// How a plan waits for its next deadline: on the process's timer thread (continuous clock),
    /// or in a task sleeping on the clock (any other clock, such as a test clock).
    private enum Wake: Sendable {
        case timer(UInt64)
        case task(Task<Void, Never>)

        func cancel() {
            switch self {
            case .timer(let id): PlaybackTimerThread.shared.cancel(id)
            case .task(let task): task.cancel()
            }
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
    private func retime(_ change: (inout Playback) -> AnimationTimeline) {
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
    private func attachToBuffer() -> UInt64 {
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

    /// A change of plan: its generation, and the wake-up it replaced (to cancel).
    private struct Plan {
        let generation: Int
        let replaced: Wake?
    }

    /// Cancels the replaced wake-up and starts the plan: its first step runs at once, on the
    /// thread that times the player (never on the caller's, so observers never run inside
    /// `play()` or `seek(toFrame:)`).
    private func schedule(_ plan: Plan) {
        plan.replaced?.cancel()
        wake(at: clock.now, generation: plan.generation)
    }

    /// Arranges for the plan of `generation` to take its next step at `deadline`.
    @_specialize(where C == ContinuousClock)
    private func wake(at deadline: C.Instant, generation: Int) {
        let wake: Wake
        if usesTimerThread {
            // `C` is `ContinuousClock` (checked once, at init), so the instant is one: a plain
            // reinterpretation, where a dynamic cast would cost a conformance lookup per frame.
            let instant = unsafeBitCast(deadline, to: ContinuousClock.Instant.self)
            wake = .timer(PlaybackTimerThread.shared.schedule(at: instant, target: self, generation: generation))
        } else {
            let player = WeakPlayer(self)
            let clock = self.clock
            wake = .task(
                Task {
                    // A deadline already reached needs no sleep (a test clock would wait for an advance).
                    if clock.now < deadline {
                        do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                    }
                    player.player?.advance(generation: generation)
                })
        }
        let stale = state.withLock { state -> Bool in
            guard state.generation == generation else { return true }
            state.wake = wake
            return false
        }
        if stale { wake.cancel() }
    }

    /// The player held weakly by its own schedule, so that releasing it ends playback.
    private struct WeakPlayer: Sendable {
        weak var player: AnimatedImagePlayer?
        init(_ player: AnimatedImagePlayer) { self.player = player }
    }

    /// What one step decided under the lock.
    private enum Decision {
        /// Show frame `sequence` (frame `index` of its loop), due at `due`.
        case show(sequence: Int, index: Int, due: C.Instant, skipped: Int, token: UInt64?)
        /// Nothing to show now; wake at the instant (or never).
        case wait(C.Instant?)
        /// Every loop has played.
        case finish
    }

    /// Takes steps until one has to wait: for a deadline (a wake-up is arranged) or for a frame
    /// being decoded (the decoder carries on when it is done).
    @_specialize(where C == ContinuousClock)
    private func advance(generation: Int) {
        var next = step(generation: generation)
        while let deadline = next {
            guard clock.now >= deadline else { return wake(at: deadline, generation: generation) }
            next = step(generation: generation)
        }
    }

    /// Shows what is due now. Returns when to step next, or `nil` when nothing is to be done
    /// until something changes (or a decode is awaited: then its completion carries on).
    @_specialize(where C == ContinuousClock)
    private func step(generation: Int) -> C.Instant? {
        let now = clock.now
        let decision = state.withLock { state -> Decision in
            guard state.generation == generation else { return .wait(nil) }
            return decide(&state, now: now)
        }
        switch decision {
        case .wait(let deadline):
            return deadline
        case .finish:
            let listeners = state.withLock { state -> Listeners in
                guard state.generation == generation else { return Listeners() }
                state.status = .finished
                state.origin = nil
                state.pausedMedia = state.timeline.mediaStart(ofFrame: 0, loop: state.timeline.loopCount)
                return state.listeners
            }
            listeners.tell(.finished)
            return nil
        case .show(let sequence, let index, let due, let skipped, let token):
            if let token { buffer.move(token, to: index) }
            // A buffered frame comes back at once (the steady state: nothing allocated).
            if let held = buffer.heldContents(at: index) {
                return publish(
                    .success(held), sequence: sequence, due: due, skipped: skipped, shownAt: clock.now,
                    generation: generation)
            }
            // Otherwise, once the decoder is done, the plan steps again on its own thread (and
            // finds the frame buffered, or a later one due); a frame that cannot be decoded is
            // passed over.
            let player = WeakPlayer(self)
            let clock = self.clock
            let held = buffer.contents(at: index) { fetched in
                guard let player = player.player else { return }
                var next: C.Instant? = clock.now
                if case .failure = fetched {
                    next = player.publish(
                        fetched, sequence: sequence, due: due, skipped: skipped,
                        shownAt: clock.now, generation: generation)
                }
                if let next { player.wake(at: next, generation: generation) }
            }
            guard let held else { return nil }
            return publish(
                .success(held), sequence: sequence, due: due, skipped: skipped, shownAt: clock.now,
                generation: generation)
        }
    }

    /// Picks the frame to show at `now` by the lateness policy.
    @_specialize(where C == ContinuousClock)
    private func decide(_ state: inout Playback, now: C.Instant) -> Decision {
        let timeline = state.timeline
        let frameCount = timeline.frameCount
        let isPlaying = state.status == .playing
        guard isPlaying || state.firstSequence != nil else { return .wait(nil) }
        let origin = state.origin ?? now.advanced(by: .zero - timeline.elapsed(forMedia: state.pausedMedia))
        let position = timeline.position(atMedia: timeline.mediaNanoseconds(elapsed: origin.duration(to: now)))
        let reached = position.loop * frameCount + position.frameIndex
        let token = state.bufferToken
        func show(_ sequence: Int, skipped: Int) -> Decision {
            let (loop, index) = sequence.quotientAndRemainder(dividingBy: frameCount)
            let due = origin.advanced(by: timeline.elapsed(forMedia: timeline.mediaStart(ofFrame: index, loop: loop)))
            return .show(sequence: sequence, index: index, due: due, skipped: skipped, token: token)
        }
        guard let shown = state.shownSequence else {
            // Nothing shows yet, or a seek: the frame asked for (`.hold`, however late) or the
            // frame of now (`.skip`). `publish` clears the request.
            let first = latenessPolicy == .hold ? state.firstSequence ?? reached : reached
            return show(first, skipped: 0)
        }
        // One frame played several times changes nothing until the end.
        if position.isFinished && (shown >= reached || frameCount == 1) { return .finish }
        guard reached > shown else {
            // Woken early (or for nothing): wait for the next change.
            return .wait(position.nextChange.map { origin.advanced(by: $0) })
        }
        switch latenessPolicy {
        case .hold:
            return show(shown + 1, skipped: 0)
        case .skip:
            return show(reached, skipped: reached - shown - 1)
        }
    }

    /// Records a shown frame, tells subscribers and observers (outside the lock), and returns
    /// the next deadline.
    @_specialize(where C == ContinuousClock)
    private func publish(
        _ fetched: Result<FrameContents, ImageError>, sequence: Int, due: C.Instant, skipped: Int,
        shownAt: C.Instant, generation: Int
    ) -> C.Instant? {
        let outcome = state.withLock { state -> (C.Instant?, FrameChange?, Listeners) in
            guard state.generation == generation else { return (nil, nil, Listeners()) }
            let timeline = state.timeline
            let frameCount = timeline.frameCount
            let lateness = due.duration(to: shownAt)
            if lateness > lateTolerance {
                state.statistics.lateFrames += 1
                // `.hold`: the rest of the animation moves back by the delay.
                if latenessPolicy == .hold, let origin = state.origin { state.origin = origin.advanced(by: lateness) }
            }
            state.statistics.maximumLateness = max(state.statistics.maximumLateness, lateness)
            state.statistics.framesSkipped += skipped
            state.shownSequence = sequence
            state.firstSequence = nil
            var change: FrameChange?
            switch fetched {
            case .success(let contents):
                state.shownContents = contents
                state.statistics.framesShown += 1
                change = FrameChange(
                    index: sequence % frameCount, loop: sequence / frameCount, contents: contents,
                    dueAt: due, shownAt: shownAt)
            case .failure:
                state.statistics.framesFailed += 1  // the previous frame stays
            }
            guard state.status == .playing, let origin = state.origin else { return (nil, change, state.listeners) }
            // The next change: the next frame, or the end of the last loop.
            let next = sequence + 1
            let media: Int64
            if timeline.loopCount > 0, next >= timeline.loopCount * frameCount || frameCount == 1 {
                media = timeline.mediaStart(ofFrame: 0, loop: timeline.loopCount)
            } else if frameCount == 1 && timeline.loopCount == 0 {
                return (nil, change, state.listeners)  // a still forever: never wake
            } else {
                media = timeline.mediaStart(ofFrame: next % frameCount, loop: next / frameCount)
            }
            return (origin.advanced(by: timeline.elapsed(forMedia: media)), change, state.listeners)
        }
        let (deadline, change, listeners) = outcome
        if let change { listeners.tell(.frame(change)) }
        return deadline
    }
}

extension AnimatedImagePlayer: PlaybackTimerTarget {
    /// The timer thread's wake-up of the plan of `generation` (continuous clock only).
    func timerFired(generation: Int) {
        advance(generation: generation)
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

/// What a player does when a frame shows late (its decode was slow, or the player woke late).
public enum PlayerLatenessPolicy: Sendable, Equatable {
    /// Never skip a frame: a late frame delays the rest (YYAnimatedImageView's behaviour).
    case hold
    /// Keep to the clock: frames whose time has passed are skipped (the terminal's default).
    case skip
}

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

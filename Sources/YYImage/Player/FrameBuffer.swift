import Dispatch
import YYDispatch

/// Decoded frames of one image, shared by every player showing that image object, within a
/// byte budget (the buffer of YYAnimatedImageView, made shared and thread-safe).
///
/// - When every frame fits, every frame is kept: after the first loop nothing is decoded again.
/// - When they do not, each player gets a window of frames ahead of the one it shows; frames
///   outside every window are dropped.
/// - One background decoder per buffer (a serial queue of the shared utility `DispatchQueuePool`)
///   fills the windows in order of need, frames a player is waiting for first. A frame is decoded
///   once however many players want it.
/// - `trim()` keeps each player's current and next frame only; the windows stay that small for
///   ``trimCooldown`` frame changes, then grow back by one frame per change.
///
/// Invariant, checked in debug builds: after each decode the buffer holds at most as many frames
/// as the budget allows less one (but one per player, whatever the budget), so the frames held
/// and the one being decoded stay within the budget (for images whose frames all have
/// `bytesPerFrame` bytes, and budgets of at least two frames).
final class FrameBuffer: Sendable {
    /// A player's claim on the buffer.
    struct Claim {
        /// The frame the player shows (or is about to).
        var index: Int
        /// The budget the player asked for, in bytes.
        var budget: Int
    }

    /// The most frames a buffer keeps, whatever the budget (YYKit's limit).
    static let maximumFrameCount = 512
    /// Frame changes after a trim before the windows grow again.
    static let trimCooldown = 30

    let image: any AnimatedImage
    /// The image's frame count, frame size and decoding scratch, read once: an image does not
    /// change them, and reading them through the protocol on every frame change costs.
    private let frameCount: Int
    private let bytesPerFrame: Int
    private let scratchBytes: Int
    private let state = Locked(State())
    /// The plan's generation: seeks, stops, detaches and trims increase it, so the decoder knows
    /// without the lock whether the frame it picked may have stopped being wanted.
    private let plan = Sentinel()
    private let queue: DispatchQueue

    private struct State {
        var frames: [Int: FrameContents] = [:]
        var claims: [UInt64: Claim] = [:]
        var nextToken: UInt64 = 0
        var waiters: [Int: [@Sendable (Result<FrameContents, ImageError>) -> Void]] = [:]
        var decoderRunning = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var missWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Frame changes since the last trim, or `nil` when none is in force.
        var changesSinceTrim: Int?
        var statistics = FrameBufferStatistics()
        /// Bytes of `frames`, kept as frames come and go.
        var bytesHeld = 0
        /// Frames whose last decode failed (a damaged file): prefetching passes them over, and
        /// only a player that asks for one tries it again.
        var failedFrames: Set<Int> = []

        /// Keeps `frame`; the peak counts it before what it displaces is dropped.
        mutating func hold(_ frame: FrameContents, at index: Int) {
            bytesHeld += frame.bufferedByteCount - (frames[index]?.bufferedByteCount ?? 0)
            frames[index] = frame
            statistics.peakBytes = max(statistics.peakBytes, bytesHeld)
        }

        /// Lets frame `index` go.
        mutating func drop(at index: Int) {
            if let frame = frames.removeValue(forKey: index) { bytesHeld -= frame.bufferedByteCount }
        }

        /// The largest budget of the players, in bytes.
        var largestBudget: Int {
            claims.values.reduce(0) { max($0, $1.budget) }
        }
    }

    init(image: any AnimatedImage, queue: DispatchQueue = DispatchQueuePool.shared(for: .utility).queue) {
        self.image = image
        self.queue = queue
        frameCount = max(1, image.frameCount)
        bytesPerFrame = image.bytesPerFrame
        scratchBytes = image.decodingScratchBytes
    }

    // MARK: Players

    /// Registers a player that wants `budget` bytes; returns its token.
    func attach(budget: Int) -> UInt64 {
        state.withLock { state in
            state.nextToken += 1
            state.claims[state.nextToken] = Claim(index: 0, budget: max(0, budget))
            return state.nextToken
        }
    }

    /// Forgets a player: its window is dropped and nothing more is decoded for it.
    func detach(_ token: UInt64) {
        plan.increase()
        state.withLock { state in
            state.claims[token] = nil
            dropUnwanted(&state)
        }
    }

    /// Changes a player's budget.
    func setBudget(_ budget: Int, for token: UInt64) {
        plan.increase()
        state.withLock { state in
            state.claims[token]?.budget = max(0, budget)
            dropUnwanted(&state)
        }
        startDecoder()
    }

    /// Tells the buffer that a player now shows frame `index`: frames behind it may go, the
    /// window ahead of it is filled in the background. `jumped` is true for seeks (the plan
    /// changes), false for the next frame in order.
    func move(_ token: UInt64, to index: Int, jumped: Bool = false) {
        if jumped { plan.increase() }
        let start = state.withLock { state -> Bool in
            if let claim = state.claims[token], claim.index != index {
                state.claims[token]?.index = index
                if let changes = state.changesSinceTrim { state.changesSinceTrim = changes + 1 }
                dropUnwanted(&state)
            }
            return claimDecoder(&state)
        }
        if start { runDecoder() }
    }

    /// Frame `index` when it is buffered (counted as a hit); `nil` otherwise, counting nothing:
    /// the caller then asks ``contents(at:whenDecoded:)``. The common case allocates nothing.
    func heldContents(at index: Int) -> FrameContents? {
        state.withLock { state in
            guard let frame = state.frames[index] else { return nil }
            state.statistics.hits += 1
            return frame
        }
    }

    /// Frame `index` at once when it is buffered (a hit). Otherwise `nil`, and `whenDecoded` is
    /// called on the decoder's queue once the frame is decoded (a miss; frames players wait for
    /// are decoded before frames fetched ahead).
    func contents(
        at index: Int,
        whenDecoded: @escaping @Sendable (Result<FrameContents, ImageError>) -> Void
    ) -> FrameContents? {
        let held = state.withLock { state -> FrameContents? in
            if let frame = state.frames[index] {
                state.statistics.hits += 1
                return frame
            }
            state.statistics.misses += 1
            state.waiters[index, default: []].append(whenDecoded)
            return nil
        }
        if held != nil { return held }
        let misses = state.withLock { state in
            let reached = state.missWaiters.filter { $0.count <= state.statistics.misses }
            state.missWaiters.removeAll { $0.count <= state.statistics.misses }
            return reached
        }
        for waiter in misses { waiter.continuation.resume() }
        startDecoder()
        return nil
    }

    /// Drops every frame but each player's current and next; the windows regrow after
    /// ``trimCooldown`` frame changes.
    func trim() {
        plan.increase()
        state.withLock { state in
            state.changesSinceTrim = 0
            dropUnwanted(&state)
        }
    }

    /// Counters and sizes now.
    var statistics: FrameBufferStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.framesHeld = state.frames.count
            statistics.bytesHeld = state.bytesHeld
            statistics.budget = state.largestBudget
            statistics.capacity = capacity(state)
            return statistics
        }
    }

    // MARK: Planning

    /// Frames the buffer may hold: the largest budget of its players, less the decoder's scratch
    /// memory, over the frame size, less the frame being decoded; at most ``maximumFrameCount``,
    /// at least one; after a trim, two at first, then one more per frame change past the cool-down.
    private func capacity(_ state: State) -> Int {
        guard bytesPerFrame > 0 else { return min(frameCount, Self.maximumFrameCount) }
        // The decoder's canvas and one frame for the frame being decoded come out of the budget,
        // so that the buffer and its decoder together stay within it.
        let budget = state.largestBudget - scratchBytes
        var frames = min(Self.maximumFrameCount, max(1, budget / bytesPerFrame - 1))
        if let changes = state.changesSinceTrim {
            frames = min(frames, 2 + max(0, changes - Self.trimCooldown))
        }
        return frames
    }

    /// Whether every frame fits, so that none is ever dropped.
    private func keepsEveryFrame(_ state: State) -> Bool {
        capacity(state) >= frameCount
    }

    /// The frames wanted, most urgent first: each player's current frame, then the frames after
    /// them (around the loop), taken in turns, up to the capacity. Players showing the same frames
    /// share their windows; players far apart share the capacity out.
    private func wantedFrames(_ state: State) -> [Int] {
        let claims = state.claims.values.sorted { $0.index < $1.index }
        guard !claims.isEmpty else { return [] }
        let limit = keepsEveryFrame(state) ? frameCount : capacity(state)
        var seen = Set<Int>()
        var order: [Int] = []
        for distance in 0..<frameCount {
            for claim in claims where order.count < limit || distance == 0 {
                let index = (claim.index + distance) % frameCount
                if seen.insert(index).inserted { order.append(index) }
            }
            if order.count >= limit { break }
        }
        return order
    }

    /// Drops frames no window wants (none at all when every frame fits and a player remains).
    private func dropUnwanted(_ state: inout State) {
        if !state.claims.isEmpty, keepsEveryFrame(state), state.changesSinceTrim == nil { return }
        let wanted = Set(wantedFrames(state))
        for index in state.frames.keys where !wanted.contains(index) {
            state.drop(at: index)
        }
        if state.changesSinceTrim != nil, keepsEveryFrame(state) { state.changesSinceTrim = nil }
    }

    // MARK: The decoder

    private func startDecoder() {
        if state.withLock({ claimDecoder(&$0) }) { runDecoder() }
    }

    /// Whether the decoder should start, marking it running if so: it is not running and there is
    /// something to decode.
    private func claimDecoder(_ state: inout State) -> Bool {
        // Every frame held and no one waiting (the steady state of an animation that fits):
        // nothing to plan, at no cost per frame.
        if state.waiters.isEmpty && state.frames.count >= frameCount { return false }
        guard !state.decoderRunning, nextFrameToDecode(state) != nil else { return false }
        state.decoderRunning = true
        return true
    }

    /// Starts the decoder claimed by ``claimDecoder(_:)`` on the buffer's queue.
    private func runDecoder() {
        queue.async { self.decodeWhileWanted() }
    }

    /// The frame to decode next: one a player waits for, else the most urgent wanted frame not
    /// held yet.
    private func nextFrameToDecode(_ state: State) -> Int? {
        if let waited = state.waiters.keys.min() { return waited }
        // A frame that failed is never held, and is not picked again: it would be decoded again
        // at once for as long as it is wanted (for ever, when the whole animation fits).
        return wantedFrames(state).first { state.frames[$0] == nil && !state.failedFrames.contains($0) }
    }

    /// Runs on the buffer's queue: decodes one frame at a time, with no lock held, until nothing
    /// more is wanted. Holds the buffer strongly only while it works.
    private func decodeWhileWanted() {
        while true {
            let ticket = plan.value
            let picked = state.withLock { state -> (index: Int?, idle: [CheckedContinuation<Void, Never>]) in
                guard let index = nextFrameToDecode(state) else {
                    state.decoderRunning = false
                    defer { state.idleWaiters = [] }
                    return (nil, state.idleWaiters)
                }
                state.statistics.decodes += 1
                return (index, [])
            }
            guard let index = picked.index else {
                for waiter in picked.idle { waiter.resume() }
                return
            }
            let result = Result { () throws(ImageError) -> FrameContents in try image.contents(at: index) }
            let waiters = state.withLock { state in
                let waiters = state.waiters.removeValue(forKey: index) ?? []
                if case .success(let frame) = result {
                    state.failedFrames.remove(index)
                    // A plan that changed while decoding may no longer want this frame.
                    let wanted = plan.value == ticket || wantedFrames(state).contains(index)
                    if wanted && !state.claims.isEmpty {
                        state.hold(frame, at: index)
                        dropUnwanted(&state)
                        assert(
                            state.frames.count <= max(capacity(state), state.claims.count),
                            "frame buffer holds more frames than its budget allows")
                    }
                } else {
                    state.statistics.failures += 1
                    state.failedFrames.insert(index)
                }
                return waiters
            }
            // Waiting players carry on outside the lock.
            for waiter in waiters { waiter(result) }
        }
    }

    /// Returns once the decoder has nothing left to do (at once if it is not running).
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = state.withLock { state -> Bool in
                if state.decoderRunning { state.idleWaiters.append(continuation) }
                return state.decoderRunning
            }
            if !running { continuation.resume() }
        }
    }

    /// Returns once `count` misses have been counted: a player is then waiting for a frame
    /// (tests use it to act while a decode is late).
    func waitUntil(misses count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                if state.statistics.misses >= count { return true }
                state.missWaiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    // MARK: Sharing

    /// The buffer of `image`: one per image object while any player uses it; a new one for
    /// images that are values rather than objects.
    static func shared(for image: any AnimatedImage) -> FrameBuffer {
        guard type(of: image) is AnyObject.Type else { return FrameBuffer(image: image) }
        let key = ObjectIdentifier(image as AnyObject)
        return registry.withLock { buffers in
            buffers = buffers.filter { $0.value.buffer != nil }
            if let buffer = buffers[key]?.buffer { return buffer }
            let buffer = FrameBuffer(image: image)
            buffers[key] = WeakBuffer(buffer: buffer)
            return buffer
        }
    }

    /// Buffers by image object, held weakly (a buffer holds its image, so an identifier in the
    /// table belongs to a live image while its buffer lives).
    private static let registry = Locked<[ObjectIdentifier: WeakBuffer]>([:])

    private struct WeakBuffer: Sendable {
        weak var buffer: FrameBuffer?
    }
}

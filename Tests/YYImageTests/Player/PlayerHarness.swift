import Clocks
import Dispatch
import Testing
import YYDispatch

@testable import YYImage

/// A player on a test clock, with everything it reports collected by an observer.
struct PlayerHarness {
    typealias Player = AnimatedImagePlayer<TestClock<Duration>>

    let clock: TestClock<Duration>
    let player: Player
    let start: TestClock<Duration>.Instant
    /// Events reported and not yet taken, oldest first.
    private let received = Locked<[Player.Event]>([])

    init(
        image: any AnimatedImage, policy: PlayerLatenessPolicy = .hold, budget: Int? = nil,
        clock: TestClock<Duration> = TestClock()
    ) {
        self.clock = clock
        self.player = Player(image: image, clock: clock, latenessPolicy: policy, bufferBudget: budget ?? 1 << 30)
        self.start = clock.now
        let received = self.received
        player.addObserver { event in received.withLock { $0.append(event) } }
    }

    /// The next event (waiting for it as long as the test's time limit allows).
    ///
    /// While it waits, the clock is nudged (`advance(by: .zero)`, which never moves time) from
    /// this task, the only one that drives the clock: a player that read the clock just before
    /// an advance may go to sleep until the instant that has just come, and `TestClock` keeps
    /// such a sleeper until the next advance.
    mutating func nextEvent(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Player.Event {
        while true {
            if let event = received.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return event }
            try Task.checkCancellation()
            await clock.advance(by: .zero)
            await Task.yield()
        }
    }

    /// Waits until `condition` holds of the player, nudging the clock as ``nextEvent()`` does: for
    /// what the player tells only its statistics (a frame that failed to decode shows nothing).
    func wait(until condition: (Player) -> Bool) async throws {
        while !condition(player) {
            try Task.checkCancellation()
            await clock.advance(by: .zero)
            await Task.yield()
        }
    }

    /// The next frame change; fails the test on `.finished` or the end of the stream.
    mutating func nextFrame(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Player.FrameChange {
        let event = try await nextEvent(sourceLocation: sourceLocation)
        guard case .frame(let change) = event else {
            Issue.record("expected a frame, got \(event)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return change
    }

    /// The instant `offset` after the start.
    func at(_ offset: Duration) -> TestClock<Duration>.Instant { start.advanced(by: offset) }

    /// Moves the clock to `offset` after the start and returns the frame shown then.
    mutating func frame(at offset: Duration, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Player.FrameChange {
        await clock.advance(to: at(offset))
        return try await nextFrame(sourceLocation: sourceLocation)
    }
}

/// Waits for a semaphore off the cooperative threads.
func wait(for semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            semaphore.wait()
            continuation.resume()
        }
    }
}

import Clocks
import Dispatch
import Testing
@testable import YYImage

/// A player on a test clock, with an iterator over everything it reports.
struct PlayerHarness {
    typealias Player = AnimatedImagePlayer<TestClock<Duration>>

    let clock: TestClock<Duration>
    let player: Player
    let start: TestClock<Duration>.Instant
    private var events: AsyncStream<Player.Event>.Iterator

    init(image: any AnimatedImage, policy: PlayerLatenessPolicy = .hold, budget: Int? = nil,
         clock: TestClock<Duration> = TestClock()) {
        self.clock = clock
        self.player = Player(image: image, clock: clock, latenessPolicy: policy, bufferBudget: budget ?? 1 << 30)
        self.start = clock.now
        self.events = player.events(bufferingPolicy: .unbounded).makeAsyncIterator()
    }

    /// The next event; fails the test if the stream ends.
    mutating func nextEvent(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Player.Event {
        try #require(await events.next(), "the player's events ended", sourceLocation: sourceLocation)
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

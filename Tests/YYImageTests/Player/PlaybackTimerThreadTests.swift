import TestTraits
import Testing

@testable import YYImage

@Suite(.hangLimit) struct PlaybackTimerThreadTests {
    final class NeverWoken: PlaybackTimerTarget {
        func timerFired(generation: Int) { Issue.record("a cancelled wake-up fired") }
    }

    /// The wake-ups were a sorted array: each one scheduled before the others moved them all, and
    /// each cancel scanned them all. A hundred thousand players' wake-ups, scheduled latest first
    /// and then cancelled, ran past a minute; with the heap they take a fraction of a second.
    @Test func aHundredThousandWakeUpsScheduledLatestFirstAndCancelled() {
        let timer = PlaybackTimerThread.shared
        let target = NeverWoken()
        let far = ContinuousClock.now + .seconds(3_600)
        var ids: [UInt64] = []
        for index in 0..<100_000 {
            ids.append(timer.schedule(at: far - .microseconds(index), target: target, generation: index))
            if index % 1_024 == 1 && Task.isCancelled { return }
        }
        for (index, id) in ids.enumerated() {
            timer.cancel(id)
            if index % 1_024 == 1 && Task.isCancelled { return }
        }
        // Other tests' players may be waiting on the thread too, but nowhere near this many.
        let counts = timer.pendingCounts
        #expect(counts.waiting < 1_000 && counts.stored < 1_000)
    }
}

import Dispatch
import Foundation
import YYDispatch

/// The thread that players on the continuous clock sleep on: a display link without a display,
/// one per process, started on first use.
///
/// A task's sleep on Linux wakes a dispatch worker and then a cooperative thread, which costs
/// several times more CPU than a futex wait (`Benchmarks/README.md`, "Measured design
/// choices"). This thread waits on a semaphore with
/// a timeout until the earliest deadline and wakes each due player itself, so a frame that is
/// already decoded is shown with no thread hop at all. Players do only the bookkeeping of a frame
/// change here and hand decoding to their buffer's queue.
final class PlaybackTimerThread: Sendable {
    /// The process's timer thread.
    static let shared = PlaybackTimerThread()

    private struct Wake {
        /// Held weakly: a player released while it waits is simply not woken.
        weak var target: (any PlaybackTimerTarget)?
        let generation: Int
    }

    private struct State {
        /// Pending wake-ups. A heap, not a sorted array: with many players, inserting, taking and
        /// cancelling stay O(log n) instead of moving every entry each frame.
        var wakes = DeadlineQueue<Wake>()
        /// What the thread sleeps until (`nil`: until something is scheduled).
        var sleepingUntil: ContinuousClock.Instant?
        var isSleeping = false
    }

    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            // Named from inside: Foundation on Linux does not pass a name set before `start()`
            // to the system thread, and debuggers and `/proc` show the system name.
            ThreadName.setCurrent(Self.threadName)
            run()
        }
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Calls `target`'s ``PlaybackTimerTarget/timerFired(generation:)`` on the timer thread at
    /// `deadline` (at once if it has passed), unless `target` is gone by then; returns an id for
    /// ``cancel(_:)``. A target and a number rather than a closure: nothing is allocated per frame.
    @discardableResult
    func schedule(at deadline: ContinuousClock.Instant, target: any PlaybackTimerTarget, generation: Int) -> UInt64 {
        let (id, wake) = state.withLock { state -> (UInt64, Bool) in
            let id = state.wakes.insert(Wake(target: target, generation: generation), at: deadline)
            // Wake the thread only when it sleeps past the new deadline.
            let wake = state.isSleeping && (state.sleepingUntil.map { deadline < $0 } ?? true)
            if wake { state.isSleeping = false }
            return (id, wake)
        }
        if wake { wakeUp.signal() }
        return id
    }

    /// The timer thread's name, as `/proc/<pid>/task/<tid>/comm` and debuggers show it.
    static let threadName = "yykit.player"

    /// Forgets a scheduled wake-up that has not happened yet.
    func cancel(_ id: UInt64) {
        state.withLock { state in _ = state.wakes.remove(id) }
    }

    /// Wake-ups waiting, and entries the queue stores for them (cancelled ones included), for
    /// tests.
    var pendingCounts: (waiting: Int, stored: Int) {
        state.withLock { ($0.wakes.count, $0.wakes.storedCount) }
    }

    private func run() {
        while true {
            let now = ContinuousClock.now
            // One due entry at a time, so that the common case (one player's next frame) copies
            // nothing out of the lock but the entry.
            let (due, next) = state.withLock { state -> (Wake?, ContinuousClock.Instant?) in
                if let wake = state.wakes.popFirst(dueBy: now) {
                    state.isSleeping = false
                    return (wake, nil)
                }
                state.sleepingUntil = state.wakes.earliestDeadline()
                state.isSleeping = true
                return (nil, state.sleepingUntil)
            }
            if let due {
                due.target?.timerFired(generation: due.generation)
                continue
            }
            if let next {
                let nanoseconds = max(0, AnimationTimeline.nanoseconds(now.duration(to: next)))
                _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(min(nanoseconds, Int64(Int.max / 2)))))
            } else {
                wakeUp.wait()
            }
        }
    }
}

/// What the timer thread wakes: a player on the continuous clock.
protocol PlaybackTimerTarget: AnyObject, Sendable {
    /// Called on the timer thread at the deadline scheduled with `generation`; must be short.
    func timerFired(generation: Int)
}

import Dispatch
import Foundation
import YYDispatch

/// The thread that players on the continuous clock sleep on: a display link without a display,
/// one per process, started on first use.
///
/// A task's sleep on Linux wakes a dispatch worker and then a cooperative thread, which costs
/// several times more CPU than the frame it times (about 250 µs a wake on the machine the
/// benchmarks ran on, against about 50 µs for a futex wait). This thread waits on a semaphore with
/// a timeout until the earliest deadline and runs each due action itself, so a frame that is
/// already decoded is shown with no thread hop at all. Actions must be short: the players' run
/// only the bookkeeping of a frame change and hand decoding to their buffer's queue.
final class PlaybackTimerThread: Sendable {
    /// The process's timer thread.
    static let shared = PlaybackTimerThread()

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64
        let action: @Sendable () -> Void
    }

    private struct State {
        /// Pending actions, earliest deadline first.
        var entries: [Entry] = []
        var nextID: UInt64 = 0
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
            Self.nameCurrentThread(Self.threadName)
            run()
        }
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Runs `action` on the timer thread at `deadline` (at once if it has passed); returns an id
    /// for ``cancel(_:)``.
    @discardableResult
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, wake) = state.withLock { state -> (UInt64, Bool) in
            state.nextID += 1
            let entry = Entry(deadline: deadline, id: state.nextID, action: action)
            // Binary search for the first later deadline: equal deadlines keep their order.
            var low = 0, high = state.entries.count
            while low < high {
                let middle = (low + high) / 2
                if state.entries[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
            }
            state.entries.insert(entry, at: low)
            // Wake the thread only when it sleeps past the new deadline.
            let wake = state.isSleeping && (state.sleepingUntil.map { deadline < $0 } ?? true)
            if wake { state.isSleeping = false }
            return (state.nextID, wake)
        }
        if wake { wakeUp.signal() }
        return id
    }

    /// The timer thread's name, as `/proc/<pid>/task/<tid>/comm` and debuggers show it.
    static let threadName = "yykit.player"

    private static func nameCurrentThread(_ name: String) {
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #else
        // Swift's Glibc module leaves out the GNU `pthread_setname_np`; the kernel's file does the same.
        try? Data(name.utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
        #endif
    }

    /// Forgets a scheduled action that has not run yet.
    func cancel(_ id: UInt64) {
        state.withLock { state in state.entries.removeAll { $0.id == id } }
    }

    private func run() {
        while true {
            let now = ContinuousClock.now
            let (due, next) = state.withLock { state -> ([Entry], ContinuousClock.Instant?) in
                let dueCount = state.entries.firstIndex { $0.deadline > now } ?? state.entries.count
                let due = Array(state.entries.prefix(dueCount))
                state.entries.removeFirst(dueCount)
                state.sleepingUntil = state.entries.first?.deadline
                state.isSleeping = due.isEmpty
                return (due, state.sleepingUntil)
            }
            guard due.isEmpty else {
                for entry in due { entry.action() }
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

import Foundation
import YYDispatch

/// A clock the test moves by hand. The monitor's thread blocks in `sleep(until:)` until the
/// test advances past its deadline; `waitForSleep(count:)` returns once the monitor has gone
/// back to sleep, so everything it did at that wake-up has happened.
final class ManualStallClock: StallMonitorClock, @unchecked Sendable {
    // @unchecked: every field is guarded by `condition`.
    private let condition = NSCondition()
    private var current: Duration = .zero
    private var sleeps = 0
    private var deadline: Duration?

    var now: Duration {
        condition.lock()
        defer { condition.unlock() }
        return current
    }

    func sleep(until deadline: Duration) {
        condition.lock()
        defer { condition.unlock() }
        sleeps += 1
        self.deadline = deadline
        condition.broadcast()
        while current < deadline { condition.wait() }
    }

    /// The deadline of the monitor's latest sleep.
    var lastDeadline: Duration? {
        condition.lock()
        defer { condition.unlock() }
        return deadline
    }

    func advance(by duration: Duration) {
        condition.lock()
        defer { condition.unlock() }
        current += duration
        condition.broadcast()
    }

    /// Waits (20 s at most) until the monitor entered `sleep(until:)` `count` times in all.
    @discardableResult
    func waitForSleep(count: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: 20)
        while sleeps < count {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}

/// A probe the test answers by hand.
final class ManualProbe: Sendable {
    private let pending = Locked<[@Sendable () -> Void]>([])
    var pings: Int { pingCount.withLock { $0 } }
    private let pingCount = Locked(0)

    var probe: StallMonitor.Probe {
        StallMonitor.Probe(name: "manual") { answer in
            self.pingCount.withLock { $0 += 1 }
            self.pending.withLock { $0.append(answer) }
        }
    }

    /// Answers every ping sent so far.
    func answer() {
        for answer in pending.withLock({ pending in
            defer { pending = [] }; return pending
        }) { answer() }
    }
}

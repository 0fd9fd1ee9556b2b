#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time a ``StallMonitor`` reads and sleeps by, injectable so that tests can drive it.
///
/// The monitor's thread calls ``sleep(until:)`` and blocks in it; probes call ``now`` from
/// whatever thread answers them.
public protocol StallMonitorClock: Sendable {
    /// Monotonic time since an arbitrary origin.
    var now: Duration { get }
    /// Blocks the calling thread until ``now`` reaches `deadline`.
    func sleep(until deadline: Duration)
}

/// The real clock: `ContinuousClock`, which keeps counting while the machine sleeps, so that a
/// suspended or paused process shows as a monitor that overslept.
public struct ContinuousStallMonitorClock: StallMonitorClock {
    private let origin = ContinuousClock.now

    /// The clock.
    public init() {}

    public var now: Duration { ContinuousClock.now - origin }

    public func sleep(until deadline: Duration) {
        // A signal may cut the sleep short (EINTR): sleep on until the deadline.
        while true {
            let remaining = deadline - now
            guard remaining > .zero else { return }
            let (seconds, attoseconds) = remaining.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var left = timespec()
            guard nanosleep(&request, &left) != 0, errno == EINTR else { return }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The time source of the memory cache: monotonic nanoseconds, so wall-clock jumps never age entries.
///
/// Tests inject a manual clock to check age limits and expiry without sleeping.
@usableFromInline
struct CacheClock: Sendable {
    /// Monotonic time in nanoseconds from an arbitrary origin.
    @usableFromInline let now: @Sendable () -> UInt64

    /// The system's monotonic clock. On Linux the coarse clock is enough (ages are compared in
    /// milliseconds at best) and costs a few nanoseconds instead of tens.
    static let monotonic = CacheClock {
        var spec = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &spec)
        #else
        clock_gettime(CLOCK_MONOTONIC, &spec)
        #endif
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `0...UInt64.max`.
    @inlinable var clampedNanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (wholeSeconds, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (total, overflow2) = wholeSeconds.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow2 ? .max : total
    }

    /// The duration in whole milliseconds, clamped to `0...Int64.max`.
    var clampedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (wholeSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        if overflow { return .max }
        let (total, overflow2) = wholeSeconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflow2 ? .max : total
    }
}

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

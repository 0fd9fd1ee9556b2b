#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A plain mutual-exclusion lock for state that holds non-`Sendable` generic values.
///
/// `Synchronization.Mutex` hands its state to the closure as `inout sending`, which (rightly) refuses
/// to store a caller's non-`Sendable` value into it. ``MemoryCache`` stores arbitrary `Value`s and
/// guards them itself, so it needs a lock that protects memory it owns rather than a value it wraps.
/// The lock word lives on the heap so that its address never moves.
final class Lock: @unchecked Sendable {
    #if canImport(os)
    private let word: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let word: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        word = .allocate(capacity: 1)
        #if canImport(os)
        word.initialize(to: os_unfair_lock())
        #else
        word.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(word, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(word)
        #endif
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// Runs `body` with the lock held. `body` must not call back into code that takes the same lock.
    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        #if canImport(os)
        os_unfair_lock_lock(word)
        defer { os_unfair_lock_unlock(word) }
        #else
        pthread_mutex_lock(word)
        defer { pthread_mutex_unlock(word) }
        #endif
        return try body()
    }
}

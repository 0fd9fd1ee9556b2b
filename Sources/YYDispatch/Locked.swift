// Public imports: `withLock` is inlinable so that it specialises in callers' modules.
#if canImport(os)
public import os
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// A value guarded by a mutual-exclusion lock.
///
/// Use it where `Synchronization.Mutex` does not fit:
/// - the state holds non-`Sendable` values that the owner guards itself (`Mutex` hands its state
///   to the closure as `inout sending`, which refuses to store a caller's non-`Sendable` value);
/// - the code must be checkable with ThreadSanitizer on Linux: `Mutex` waits on a raw futex there,
///   which the sanitizer cannot see, so every access inside it is reported as a race. This lock is
///   a `pthread_mutex_t` (an `os_unfair_lock` on Apple platforms), which the sanitizer understands.
///
/// The lock and the state live in one allocation; copies of a `Locked` share them.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["hits", default: 0] += 1 }
/// ```
public struct Locked<State> {
    @usableFromInline let storage: LockedStorage<State>

    /// Creates a lock guarding `initialState`.
    public init(_ initialState: State) {
        storage = LockedStorage.make(initialState)
    }

    /// Runs `body` with exclusive access to the state. `body` must not take the same lock again.
    @inlinable @inline(__always)
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try storage.withLock(body)
    }

    /// Stores `newValue` at `keyPath` and returns the value it replaced, for the caller to drop
    /// after the lock. Use it to replace a closure or an object: what the old one holds may run
    /// user code in its `deinit` (and take this very lock), which must never happen under the lock.
    @discardableResult
    public func exchange<Value>(_ keyPath: WritableKeyPath<State, Value>, with newValue: Value) -> Value {
        var value = newValue
        withLock { swap(&$0[keyPath: keyPath], &value) }
        return value
    }
}

extension Locked: @unchecked Sendable where State: Sendable {}

#if canImport(os)
@usableFromInline typealias LockPrimitive = os_unfair_lock
#else
@usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

/// The state in the header of a managed buffer whose single tail element is the lock word: the
/// buffer never moves, so the lock's address is stable as the C APIs require.
@usableFromInline
final class LockedStorage<State>: ManagedBuffer<State, LockPrimitive> {
    static func make(_ initialState: State) -> LockedStorage {
        let buffer = create(minimumCapacity: 1) { _ in initialState }
        let storage = unsafeDowncast(buffer, to: LockedStorage.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(os)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(lock, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
            #endif
        }
        return storage
    }

    /// `ManagedBuffer` destroys the header (the state) itself; the tail element is ours.
    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(os)
            pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
        }
    }

    @inlinable @inline(__always)
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try withUnsafeMutablePointers { (state, lock) throws(Failure) -> Result in
            #if canImport(os)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&state.pointee)
        }
    }
}

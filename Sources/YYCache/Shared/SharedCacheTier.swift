public import Foundation

/// A byte store that several processes or machines share, used by ``Cache`` as its third level.
///
/// `Cache` reads memory, then disk, then the shared tier, and writes and removes on all three. A
/// shared tier is remote and may be down, slow or full: the cache treats every error it throws as
/// a miss or a skipped write, counts it in ``Cache/sharedTierStatistics`` and logs it, and never
/// fails a cache call because of it. Implementations should therefore bound every call with a
/// short timeout rather than wait for a dead server.
///
/// `YYCacheRedis.RedisCacheTier` is the implementation on Redis, whose calls throw `RedisError`.
public protocol SharedCacheTier: Sendable {
    /// What the tier's calls throw (`any Error` unless the implementation says more).
    associatedtype Failure: Error = any Error

    /// The bytes stored for `key` and when they expire, or `nil` when there are none (or they were
    /// unreadable: foreign, truncated or corrupt).
    func entry(forKey key: String) async throws(Failure) -> SharedCacheEntry?

    /// Stores `data` for `key`, expiring after `timeToLive` (never when `nil`).
    ///
    /// - Returns: ``SharedCacheWriteOutcome/skipped`` when the tier chose not to store the value
    ///   (too large, or the node that owns the key is known to be down).
    @discardableResult
    func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async throws(Failure) -> SharedCacheWriteOutcome

    /// Removes the bytes stored for `key`, if any. A fill of the key under way read its source
    /// before this removal, so a tier with fill locks must make
    /// ``setFilledData(_:forKey:timeToLive:fillLockOwner:replacingUnusableValue:)`` refuse its
    /// value (`RedisCacheTier` marks the key's fill lock superseded).
    func removeData(forKey key: String) async throws(Failure)

    /// Tries to become the one process that fills `key`: `true` when this caller now holds the fill
    /// lock, `false` when another holder has it. The lock expires by itself after `timeToLive`, so
    /// a holder that dies never blocks the others for longer.
    ///
    /// The default implementation always answers `true`: without it, each process fills on its own.
    func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws(Failure) -> Bool

    /// Releases the fill lock of `key` if `owner` still holds it (a lock that expired and was taken
    /// by someone else is left alone).
    func releaseFillLock(forKey key: String, owner: String) async throws(Failure)

    /// Stores `data`, the result of a fill, for `key` only if no removal and no write of `key`
    /// came, on any machine, since `owner` took the key's fill lock: they are newer than what the
    /// fill read. The fill lock is a lease in memcache's sense. `RedisCacheTier` checks, in one
    /// step, that the lock is still `owner`'s and not marked superseded by a removal (or is gone:
    /// it expired during a slow fill) and that no value of its own is stored.
    ///
    /// - Parameter replacingUnusableValue: `true` when the fill began with a value for `key` in the
    ///   tier that the cache could not use (another type's or another version's, say): that value
    ///   is no write made while the fill ran, and the fill replaces it, so that the value is kept
    ///   and later calls do not run the fill again.
    /// - Returns: ``SharedCacheWriteOutcome/superseded`` when the lock or the key said so,
    ///   ``SharedCacheWriteOutcome/skipped`` as ``setData(_:forKey:timeToLive:)`` does.
    ///
    /// The default implementation calls ``setData(_:forKey:timeToLive:)``: a tier without fill
    /// locks cannot tell.
    @discardableResult
    func setFilledData(
        _ data: Data, forKey key: String, timeToLive: Duration?, fillLockOwner owner: String,
        replacingUnusableValue: Bool
    ) async throws(Failure) -> SharedCacheWriteOutcome
}

extension SharedCacheTier {
    public func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws(Failure) -> Bool { true }
    public func releaseFillLock(forKey key: String, owner: String) async throws(Failure) {}

    @discardableResult
    public func setFilledData(
        _ data: Data, forKey key: String, timeToLive: Duration?, fillLockOwner owner: String,
        replacingUnusableValue: Bool
    ) async throws(Failure) -> SharedCacheWriteOutcome {
        try await setData(data, forKey: key, timeToLive: timeToLive)
    }
}

/// A value read from a ``SharedCacheTier``.
public struct SharedCacheEntry: Sendable, Hashable {
    /// The stored bytes.
    public var data: Data
    /// When the value expires, or `nil` when it never does.
    public var expirationDate: Date?

    /// Creates an entry.
    public init(data: Data, expirationDate: Date?) {
        self.data = data
        self.expirationDate = expirationDate
    }
}

/// Whether a ``SharedCacheTier`` stored a value.
public enum SharedCacheWriteOutcome: Sendable, Hashable {
    /// The value is stored.
    case stored
    /// The tier chose not to store it (too large, or the node that owns the key is down).
    case skipped
    /// A fill's value was not stored: the key was removed or written while the fill ran (see
    /// ``SharedCacheTier/setFilledData(_:forKey:timeToLive:fillLockOwner:replacingUnusableValue:)``).
    case superseded
}

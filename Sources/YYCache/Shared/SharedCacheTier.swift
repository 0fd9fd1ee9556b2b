public import Foundation

/// A byte store that several processes or machines share, used by ``Cache`` as its third level.
///
/// `Cache` reads memory, then disk, then the shared tier, and writes and removes on all three. A
/// shared tier is remote and may be down, slow or full: the cache treats every error it throws as
/// a miss or a skipped write, counts it in ``Cache/sharedTierStatistics`` and logs it, and never
/// fails a cache call because of it. Implementations should therefore bound every call with a
/// short timeout rather than wait for a dead server.
///
/// `YYCacheRedis.RedisCacheTier` is the implementation on Redis.
public protocol SharedCacheTier: Sendable {
    /// The bytes stored for `key` and when they expire, or `nil` when there are none (or they were
    /// unreadable: foreign, truncated or corrupt).
    func entry(forKey key: String) async throws -> SharedCacheEntry?

    /// Stores `data` for `key`, expiring after `timeToLive` (never when `nil`).
    ///
    /// - Returns: ``SharedCacheWriteOutcome/skipped`` when the tier chose not to store the value
    ///   (too large, or the node that owns the key is known to be down).
    @discardableResult
    func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async throws -> SharedCacheWriteOutcome

    /// Removes the bytes stored for `key`, if any.
    func removeData(forKey key: String) async throws

    /// Tries to become the one process that fills `key`: `true` when this caller now holds the fill
    /// lock, `false` when another holder has it. The lock expires by itself after `timeToLive`, so
    /// a holder that dies never blocks the others for longer.
    ///
    /// The default implementation always answers `true`: without it, each process fills on its own.
    func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws -> Bool

    /// Releases the fill lock of `key` if `owner` still holds it (a lock that expired and was taken
    /// by someone else is left alone).
    func releaseFillLock(forKey key: String, owner: String) async throws
}

extension SharedCacheTier {
    public func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws -> Bool { true }
    public func releaseFillLock(forKey key: String, owner: String) async throws {}
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
}

public import Foundation
public import YYCache
public import YYDispatch

/// A shared tier in memory for the tests of `Cache` and of the image pipeline, which can be told
/// to fail.
public final class InMemorySharedTier: SharedCacheTier {
    /// What every call throws while ``State/failing`` is set.
    public struct Failure: Error {}

    /// The tier's contents and what was asked of it.
    public struct State: Sendable {
        /// The stored entries, by key.
        public var entries: [String: SharedCacheEntry] = [:]
        /// The fill locks held, by key: their owners.
        public var locks: [String: String] = [:]
        /// Makes every call but `releaseFillLock` throw ``Failure``.
        public var failing = false
        /// How many reads were asked for.
        public var reads = 0
        /// The keys written, in order; a removal's key follows a "-".
        public var writes: [String] = []
    }

    /// The contents, for a test to read and change.
    public let state = Locked(State())

    /// An empty tier.
    public init() {}

    public func entry(forKey key: String) async throws(Failure) -> SharedCacheEntry? {
        try state.withLock { state throws(Failure) in
            state.reads += 1
            if state.failing { throw Failure() }
            return state.entries[key]
        }
    }

    public func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async throws(Failure) -> SharedCacheWriteOutcome {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            return Self.store(data, forKey: key, timeToLive: timeToLive, in: &state)
        }
    }

    private static func store(_ data: Data, forKey key: String, timeToLive: Duration?, in state: inout State) -> SharedCacheWriteOutcome {
        let expiration = timeToLive.map { Date().addingTimeInterval(Double($0.components.seconds)) }
        state.entries[key] = SharedCacheEntry(data: data, expirationDate: expiration)
        state.writes.append(key)
        return .stored
    }

    public func removeData(forKey key: String) async throws(Failure) {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            state.entries[key] = nil
            state.writes.append("-" + key)
            if let owner = state.locks[key], !owner.hasPrefix(Self.superseded) { state.locks[key] = Self.superseded + owner }
        }
    }

    /// What a removal puts before the owner of a held fill lock (as `RedisCacheTier` does).
    public static let superseded = "superseded:"

    public func setFilledData(
        _ data: Data, forKey key: String, timeToLive: Duration?, fillLockOwner owner: String,
        replacingUnusableValue: Bool
    ) async throws(Failure) -> SharedCacheWriteOutcome {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            if let holder = state.locks[key], holder != owner { return .superseded }
            if state.entries[key] != nil, !replacingUnusableValue { return .superseded }
            return Self.store(data, forKey: key, timeToLive: timeToLive, in: &state)
        }
    }

    public func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws(Failure) -> Bool {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            if state.locks[key] != nil { return false }
            state.locks[key] = owner
            return true
        }
    }

    public func releaseFillLock(forKey key: String, owner: String) async throws(Failure) {
        state.withLock { state in
            if state.locks[key] == owner || state.locks[key] == Self.superseded + owner { state.locks[key] = nil }
        }
    }
}

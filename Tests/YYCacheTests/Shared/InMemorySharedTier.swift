import Foundation
import YYCache
import YYDispatch

/// A shared tier in memory for the cache's tests, which can be told to fail.
final class InMemorySharedTier: SharedCacheTier {
    struct Failure: Error {}

    struct State {
        var entries: [String: SharedCacheEntry] = [:]
        var locks: [String: String] = [:]
        var failing = false
        var reads = 0
        var writes: [String] = []
    }

    let state = Locked(State())

    func entry(forKey key: String) async throws -> SharedCacheEntry? {
        try state.withLock { state throws(Failure) in
            state.reads += 1
            if state.failing { throw Failure() }
            return state.entries[key]
        }
    }

    func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async throws -> SharedCacheWriteOutcome {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            let expiration = timeToLive.map { Date().addingTimeInterval(Double($0.components.seconds)) }
            state.entries[key] = SharedCacheEntry(data: data, expirationDate: expiration)
            state.writes.append(key)
            return .stored
        }
    }

    func removeData(forKey key: String) async throws {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            state.entries[key] = nil
            state.writes.append("-" + key)
        }
    }

    func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws -> Bool {
        try state.withLock { state throws(Failure) in
            if state.failing { throw Failure() }
            if state.locks[key] != nil { return false }
            state.locks[key] = owner
            return true
        }
    }

    func releaseFillLock(forKey key: String, owner: String) async throws {
        state.withLock { state in
            if state.locks[key] == owner { state.locks[key] = nil }
        }
    }
}

public import Foundation
public import YYCache
import YYDispatch

/// A tier whose writes and removals (or, when asked, reads) wait until ``open()``: slower than
/// any writer (or reader).
public final class StalledSharedTier: SharedCacheTier {
    /// What waits for ``open()``.
    public enum Stalled: Sendable { case writes, reads }

    /// Where the entries are kept.
    public let inner = InMemorySharedTier()
    /// The kind of operation that waits.
    public let stalled: Stalled
    private let gate: Locked<Gate>

    private struct Gate {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// How many more operations of the stalled kind wait; later ones go straight through.
        var stallsLeft: Int
    }

    /// - Parameters:
    ///   - stalled: the kind of operation that waits.
    ///   - limit: how many of them wait (the first ones); the rest go straight through.
    public init(stalling stalled: Stalled = .writes, limit: Int = .max) {
        self.stalled = stalled
        self.gate = Locked(Gate(stallsLeft: limit))
    }

    /// The operations waiting for ``open()``.
    public var waitingCount: Int { gate.withLock { $0.waiters.count } }

    /// Lets every waiting and later operation through.
    public func open() {
        let waiters = gate.withLock { gate in
            gate.isOpen = true
            defer { gate.waiters = [] }
            return gate.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func waitUntilOpen() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = gate.withLock { gate in
                guard !gate.isOpen, gate.stallsLeft > 0 else { return false }
                gate.stallsLeft -= 1
                gate.waiters.append(continuation)
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// A stalled read has its answer already: the reply is what is slow to arrive.
    public func entry(forKey key: String) async throws -> SharedCacheEntry? {
        let entry = try await inner.entry(forKey: key)
        if stalled == .reads { await waitUntilOpen() }
        return entry
    }

    public func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async throws -> SharedCacheWriteOutcome {
        if stalled == .writes { await waitUntilOpen() }
        return try await inner.setData(data, forKey: key, timeToLive: timeToLive)
    }

    public func setFilledData(
        _ data: Data, forKey key: String, timeToLive: Duration?, fillLockOwner owner: String,
        replacingUnusableValue: Bool
    ) async throws -> SharedCacheWriteOutcome {
        if stalled == .writes { await waitUntilOpen() }
        return try await inner.setFilledData(
            data, forKey: key, timeToLive: timeToLive, fillLockOwner: owner,
            replacingUnusableValue: replacingUnusableValue)
    }

    public func removeData(forKey key: String) async throws {
        if stalled == .writes { await waitUntilOpen() }
        try await inner.removeData(forKey: key)
    }

    public func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws -> Bool {
        try await inner.acquireFillLock(forKey: key, owner: owner, timeToLive: timeToLive)
    }

    public func releaseFillLock(forKey key: String, owner: String) async throws {
        try await inner.releaseFillLock(forKey: key, owner: owner)
    }
}

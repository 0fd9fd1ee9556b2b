import Foundation
import Logging
import Testing
import YYDispatch
@testable import YYCache

/// A tier whose writes and removals (or, when asked, reads) wait until ``open()``: slower than
/// any writer (or reader).
final class StalledSharedTier: SharedCacheTier {
    /// What waits for ``open()``.
    enum Stalled { case writes, reads }

    let inner = InMemorySharedTier()
    let stalled: Stalled
    private let gate = Locked((isOpen: false, waiters: [CheckedContinuation<Void, Never>]()))

    init(stalling stalled: Stalled = .writes) {
        self.stalled = stalled
    }

    /// The operations waiting for ``open()``.
    var waitingCount: Int { gate.withLock { $0.waiters.count } }

    /// Lets every waiting and later write through.
    func open() {
        let waiters = gate.withLock { gate in
            gate.isOpen = true
            defer { gate.waiters = [] }
            return gate.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func waitUntilOpen() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = gate.withLock { gate in
                if !gate.isOpen { gate.waiters.append(continuation) }
                return gate.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// A stalled read has its answer already: the reply is what is slow to arrive.
    func entry(forKey key: String) async throws -> SharedCacheEntry? {
        let entry = try await inner.entry(forKey: key)
        if stalled == .reads { await waitUntilOpen() }
        return entry
    }

    func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async throws -> SharedCacheWriteOutcome {
        if stalled == .writes { await waitUntilOpen() }
        return try await inner.setData(data, forKey: key, timeToLive: timeToLive)
    }

    func removeData(forKey key: String) async throws {
        if stalled == .writes { await waitUntilOpen() }
        try await inner.removeData(forKey: key)
    }

    func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async throws -> Bool {
        try await inner.acquireFillLock(forKey: key, owner: owner, timeToLive: timeToLive)
    }

    func releaseFillLock(forKey key: String, owner: String) async throws {
        try await inner.releaseFillLock(forKey: key, owner: owner)
    }
}

@Suite struct SharedTierLinkTests {
    @Test func writesWaitingForASlowTierAreBoundedAndThoseOverTheBoundSkipped() async throws {
        let tier = StalledSharedTier()
        let megabyte = Data(count: 1 << 20)
        // Room for the first ten writes exactly, and nothing more.
        let first = SharedTierLink.Write.set(megabyte, key: "k0", timeToLive: nil)
        let link = SharedTierLink(tier: tier, logger: Logger(label: "test"), maximumQueuedBytes: 10 * first.queuedSize)
        // As Cache's deinit does: the sending task ends, and lets go of the link (LeakSanitizer).
        defer { link.finish() }
        // Sent one at a time, to a tier that does not answer: the queue held all 100 (100 MB).
        for index in 0..<100 { link.enqueue(.set(megabyte, key: "k\(index)", timeToLive: nil)) }
        link.enqueue(.remove(key: "k0"))
        #expect(link.statistics.skippedWrites == 91)
        tier.open()
        await link.flush()
        #expect(tier.inner.state.withLock(\.writes) == (0..<10).map { "k\($0)" })
        // Once they are sent, writes are taken again.
        link.enqueue(.set(megabyte, key: "later", timeToLive: nil))
        link.enqueue(.remove(key: "k0"))
        await link.flush()
        #expect(tier.inner.state.withLock(\.writes).suffix(2) == ["later", "-k0"])
        #expect(link.statistics.skippedWrites == 91)
    }
}

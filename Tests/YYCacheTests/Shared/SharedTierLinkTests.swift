import Foundation
import Logging
import SharedTierDoubles
import TestSupport
import Testing
import YYDispatch

@testable import YYCache

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

    /// The async API's write of a key whose synchronous writes wait in the queue goes through the
    /// queue after them, and a full queue must not skip it: skipped, it left the older queued value
    /// in the tier, for every machine, while this one's levels held the newer.
    @Test(arguments: [false, true])
    func anAsyncWriteBehindQueuedWritesOfItsKeyIsSentEvenWhenTheQueueIsFull(removing: Bool) async throws {
        let tier = StalledSharedTier()
        let older = SharedTierLink.Write.set(Data("older".utf8), key: "k", timeToLive: nil)
        let link = SharedTierLink(tier: tier, logger: Logger(label: "test"), maximumQueuedBytes: older.queuedSize)
        defer { link.finish() }
        link.enqueue(older)  // the queue is full until the tier takes it
        let newer = Task {
            if removing { await link.removeData(forKey: "k") } else { await link.setData(Data("newer".utf8), forKey: "k", timeToLive: nil) }
        }
        await waitUntil { link.queuedWrites(forKey: "k") == 2 || link.statistics.skippedWrites > 0 }
        tier.open()
        await newer.value
        await link.flush()
        #expect(link.statistics.skippedWrites == 0)
        #expect(tier.inner.state.withLock(\.writes) == ["k", removing ? "-k" : "k"])
        #expect(tier.inner.state.withLock { $0.entries["k"] }?.data == (removing ? nil : Data("newer".utf8)))
    }
}

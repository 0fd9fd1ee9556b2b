import Foundation
import Logging
import SharedTierDoubles
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
}

import Synchronization
import Testing
import YYCache

/// The monitor itself is tested in YYDispatchTests; this checks that a `MemoryCache` is a handler.
@Suite struct MemoryCachePressureTests {
    @Test func monitorEmptiesARegisteredCacheOnACrossing() {
        let available = Atomic<Int64>(50)
        let monitor = MemoryPressureMonitor(threshold: 0.2) {
            MemoryPressureMonitor.Reading(available: available.load(ordering: .relaxed), limit: 100)
        }
        let cache = MemoryCache<Int, Int>()
        monitor.register(cache)
        cache.setValue(1, forKey: 1)
        #expect(!monitor.check())
        #expect(cache.totalCount == 1)
        available.store(10, ordering: .relaxed)
        #expect(monitor.check())
        #expect(cache.totalCount == 0)
    }
}

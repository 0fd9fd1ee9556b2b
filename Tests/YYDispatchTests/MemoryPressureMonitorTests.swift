import Synchronization
import Testing

@testable import YYDispatch

@Suite struct MemoryPressureMonitorTests {
    /// Counts the calls it gets.
    final class CountingHandler: MemoryPressureHandling, Sendable {
        let calls = Atomic<Int>(0)
        func handleMemoryPressure() { calls.add(1, ordering: .relaxed) }
        var count: Int { calls.load(ordering: .relaxed) }
    }

    @Test func parsesProcMeminfo() throws {
        let text = """
            MemTotal:       24576000 kB
            MemFree:         1000000 kB
            MemAvailable:    2457600 kB
            """
        let reading = try #require(SystemMemory.parseMeminfo(text))
        #expect(reading.limit == 24_576_000 * 1024)
        #expect(reading.available == 2_457_600 * 1024)
        #expect(abs(reading.availableFraction - 0.1) < 1e-9)
        #expect(SystemMemory.parseMeminfo("garbage") == nil)
    }

    @Test func readsThisMachine() throws {
        #if os(Linux)
        // A cgroup limit or /proc/meminfo is always there on Linux.
        let reading = try #require(MemoryPressureMonitor.systemReading())
        #expect(reading.limit > 0)
        #expect(reading.available <= reading.limit)
        #else
        // Elsewhere none of those files exists: there is no reading.
        #expect(MemoryPressureMonitor.systemReading() == nil)
        #endif
    }

    @Test func callsHandlersOncePerCrossing() {
        let available = Atomic<Int64>(50)
        let monitor = MemoryPressureMonitor(threshold: 0.2) {
            MemoryPressureMonitor.Reading(available: available.load(ordering: .relaxed), limit: 100)
        }
        let handler = CountingHandler()
        monitor.register(handler)
        #expect(!monitor.check())
        available.store(10, ordering: .relaxed)
        #expect(monitor.check())
        #expect(handler.count == 1)
        #expect(!monitor.check())  // still under pressure: no second call
        #expect(handler.count == 1)
        available.store(90, ordering: .relaxed)
        #expect(!monitor.check())
        available.store(5, ordering: .relaxed)
        #expect(monitor.check())  // a new crossing
        #expect(handler.count == 2)
    }

    /// There was no way to stop calling a handler short of releasing it, and one registered
    /// twice was called twice per crossing.
    @Test func aHandlerRegisteredTwiceIsCalledOnceAndUnregisteringStopsIt() {
        let available = Atomic<Int64>(10)
        let monitor = MemoryPressureMonitor(threshold: 0.2) {
            MemoryPressureMonitor.Reading(available: available.load(ordering: .relaxed), limit: 100)
        }
        let (kept, removed) = (CountingHandler(), CountingHandler())
        for handler in [kept, removed, kept, removed] { monitor.register(handler) }
        #expect(monitor.check())
        #expect((kept.count, removed.count) == (1, 1))
        monitor.unregister(removed)
        monitor.unregister(removed)  // not registered any more: nothing happens
        available.store(90, ordering: .relaxed)
        #expect(!monitor.check())
        available.store(5, ordering: .relaxed)
        #expect(monitor.check())
        #expect((kept.count, removed.count) == (2, 1))
    }

    @Test func holdsHandlersWeakly() {
        let monitor = MemoryPressureMonitor(threshold: 0.5) { .init(available: 0, limit: 100) }
        do {
            let handler = CountingHandler()
            monitor.register(handler)
        }
        #expect(!monitor.check())
    }
}

import Foundation
import Synchronization
import TestSupport
import Testing
import YYDispatch

@testable import YYCache

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let nanoseconds = Atomic<UInt64>(1_000_000_000)
    func advance(by duration: Duration) { nanoseconds.wrappingAdd(duration.clampedNanoseconds, ordering: .relaxed) }
    var cacheClock: CacheClock { CacheClock { self.nanoseconds.load(ordering: .relaxed) } }
}

/// A value that records whether it was deallocated inside a call the test marked on its thread.
final class Tracked: Sendable {
    static let deallocations = Locked<[(id: Int, insideMarkedCall: Bool)]>([])
    static let marker = "yykit.test.insideCall"
    let id: Int
    init(_ id: Int) { self.id = id }
    deinit {
        let inside = Thread.current.threadDictionary[Self.marker] != nil
        Self.deallocations.withLock { $0.append((id, inside)) }
    }

    /// Runs `body` with this thread marked, so a deallocation during it is recognised.
    static func marking(_ body: () -> Void) {
        Thread.current.threadDictionary[marker] = true
        body()
        Thread.current.threadDictionary[marker] = nil
    }

    static func deallocation(of id: Int) -> (id: Int, insideMarkedCall: Bool)? {
        deallocations.withLock { $0.first { $0.id == id } }
    }
}

@Suite struct MemoryCacheTests {
    @Test func storesAndReadsValues() {
        let cache = MemoryCache<String, Int>(name: "t")
        cache.setValue(1, forKey: "a")
        cache["b"] = 2
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache["b"] == 2)
        #expect(cache.value(forKey: "c") == nil)
        #expect(cache.contains("a"))
        #expect(!cache.contains("c"))
        #expect(cache.totalCount == 2)
        cache["b"] = nil
        #expect(cache.totalCount == 1)
        #expect(cache.removeValue(forKey: "a") == 1)
        #expect(cache.removeValue(forKey: "a") == nil)
        #expect(cache.totalCount == 0)
    }

    @Test func evictsTheLeastRecentlyUsedEntryFirst() {
        let cache = MemoryCache<Int, Int>()
        cache.countLimit = 3
        for i in 0..<3 { cache.setValue(i, forKey: i) }
        _ = cache.value(forKey: 0)  // order now 0, 2, 1 (most to least recent)
        cache.setValue(3, forKey: 3)  // evicts 1
        #expect(!cache.contains(1))
        #expect(cache.contains(0))
        #expect(cache.contains(2))
        #expect(cache.contains(3))
        cache.setValue(20, forKey: 2)  // overwrite refreshes 2; order 2, 3, 0
        cache.setValue(4, forKey: 4)  // evicts 0
        #expect(!cache.contains(0))
        #expect(cache.value(forKey: 2) == 20)
        #expect(cache.statistics.evictions == 2)
    }

    @Test func containsDoesNotRefreshRecency() {
        let cache = MemoryCache<Int, Int>()
        cache.countLimit = 2
        cache.setValue(0, forKey: 0)
        cache.setValue(1, forKey: 1)
        #expect(cache.contains(0))
        cache.setValue(2, forKey: 2)
        #expect(!cache.contains(0))
    }

    @Test func costLimitIsEnforcedOnInsert() {
        let cache = MemoryCache<Int, Int>()
        cache.costLimit = 100
        for i in 0..<10 { cache.setValue(i, forKey: i, cost: 30) }
        #expect(cache.totalCost <= 100)
        #expect(cache.totalCount == 3)
        #expect(cache.contains(9))
        #expect(cache.contains(8))
        #expect(cache.contains(7))
    }

    @Test func valueCostlierThanTheLimitIsNotStoredAndDropsTheOldValue() {
        let cache = MemoryCache<String, Int>()
        cache.costLimit = 10
        cache.setValue(1, forKey: "k", cost: 5)
        cache.setValue(2, forKey: "k", cost: 11)
        #expect(cache.value(forKey: "k") == nil)
        #expect(cache.totalCost == 0)
    }

    @Test func loweringLimitsEvictsAtOnce() {
        let cache = MemoryCache<Int, Int>()
        for i in 0..<100 { cache.setValue(i, forKey: i, cost: 2) }
        cache.countLimit = 50
        #expect(cache.totalCount == 50)
        cache.costLimit = 20
        #expect(cache.totalCount == 10)
        #expect(cache.contains(99))
        #expect(!cache.contains(89))
    }

    @Test func trimsToCountCostAndAge() {
        let clock = ManualClock()
        let cache = MemoryCache<Int, Int>(name: nil, clock: clock.cacheClock)
        for i in 0..<10 {
            cache.setValue(i, forKey: i, cost: 10)
            clock.advance(by: .seconds(1))
        }
        cache.trim(toCount: 8)
        #expect(cache.totalCount == 8)
        #expect(!cache.contains(1))
        #expect(cache.contains(2))
        cache.trim(toCost: 55)
        #expect(cache.totalCost == 50)
        #expect(cache.contains(5))
        #expect(!cache.contains(4))
        // Entries 5...9 were written 5, 4, 3, 2 and 1 seconds ago.
        cache.trim(toAge: .milliseconds(2500))
        #expect(cache.totalCount == 2)
        #expect(cache.contains(8))
        #expect(cache.contains(9))
        cache.trim(toCount: 0)
        #expect(cache.totalCount == 0)
        #expect(cache.totalCost == 0)
    }

    @Test func ageCountsFromTheLastRead() {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(name: nil, clock: clock.cacheClock)
        cache.setValue(1, forKey: "old")
        cache.setValue(2, forKey: "read")
        clock.advance(by: .seconds(10))
        _ = cache.value(forKey: "read")
        clock.advance(by: .seconds(1))
        cache.trim(toAge: .seconds(5))
        #expect(!cache.contains("old"))
        #expect(cache.contains("read"))
    }

    @Test func entriesExpireAfterTheirTimeToLive() {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(name: nil, clock: clock.cacheClock)
        cache.setValue(1, forKey: "short", expiresAfter: .seconds(2))
        cache.setValue(2, forKey: "forever")
        clock.advance(by: .seconds(1))
        #expect(cache.value(forKey: "short") == 1)
        clock.advance(by: .seconds(1))
        #expect(!cache.contains("short"))
        #expect(cache.value(forKey: "short") == nil)
        #expect(cache.value(forKey: "forever") == 2)
        #expect(cache.statistics == CacheStatistics(hits: 2, misses: 1, evictions: 1))
    }

    @Test func periodicSweepRemovesExpiredEntries() {
        let clock = ManualClock()
        let cache = MemoryCache<Int, Int>(name: nil, clock: clock.cacheClock)
        for i in 0..<100 { cache.setValue(i, forKey: i, expiresAfter: i.isMultiple(of: 2) ? .seconds(1) : nil) }
        clock.advance(by: .seconds(2))
        cache.trimAutomatically()
        #expect(cache.totalCount == 50)
    }

    @Test func autoTrimTimerAppliesTheAgeLimit() async throws {
        let cache = MemoryCache<Int, Int>()
        cache.autoTrimInterval = .milliseconds(20)
        cache.ageLimit = .milliseconds(50)
        cache.setValue(1, forKey: 1)
        await waitUntil { cache.totalCount == 0 }
        #expect(cache.totalCount == 0)
    }

    @Test func releasedCacheStopsItsTimerAndIsDeallocated() async throws {
        weak var weakCache: MemoryCache<Int, Int>?
        do {
            let cache = MemoryCache<Int, Int>()
            cache.autoTrimInterval = .milliseconds(10)
            cache.ageLimit = .seconds(3_600)  // starts the timer
            cache.setValue(1, forKey: 1)
            cache.setValue(2, forKey: 2, expiresAfter: .milliseconds(1))
            weakCache = cache
            // Wait for the event: the timer has run once it has swept the expired value.
            await waitUntil { cache.statistics.evictions > 0 }
            #expect(cache.statistics.evictions >= 1)
        }
        // The timer holds the cache weakly, only while a tick runs: it goes once that tick ends.
        await waitUntil { weakCache == nil }
        #expect(weakCache == nil)
    }

    @Test func countsHitsMissesAndEvictions() {
        let cache = MemoryCache<Int, Int>()
        cache.countLimit = 1
        cache.setValue(1, forKey: 1)
        cache.setValue(2, forKey: 2)
        _ = cache.value(forKey: 2)
        _ = cache.value(forKey: 1)
        #expect(cache.statistics == CacheStatistics(hits: 1, misses: 1, evictions: 1))
        #expect(cache.statistics.hitRatio == 0.5)
        cache.resetStatistics()
        #expect(cache.statistics == CacheStatistics())
    }

    @Test func releasesEvictedValuesOffTheCallersThread() throws {
        let cache = MemoryCache<Int, Tracked>()
        cache.countLimit = 1
        let base = 1_000_000
        cache.setValue(Tracked(base), forKey: 1)
        Tracked.marking { cache.setValue(Tracked(base + 1), forKey: 2) }  // evicts `base`
        let deadline = Date().addingTimeInterval(10)
        while Tracked.deallocation(of: base) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let evicted = try #require(Tracked.deallocation(of: base))
        #expect(!evicted.insideMarkedCall)
        // A value replaced under the same key is not an eviction: released on return, in the call.
        Tracked.marking { cache.setValue(Tracked(base + 2), forKey: 2) }
        #expect(Tracked.deallocation(of: base + 1)?.insideMarkedCall == true)
    }

    @Test func releasesSynchronouslyWhenAsked() {
        let cache = MemoryCache<Int, Tracked>()
        cache.releasesValuesAsynchronously = false
        let id = 2_000_000
        cache.setValue(Tracked(id), forKey: 1)
        Tracked.marking { cache.removeAll() }
        #expect(Tracked.deallocation(of: id)?.insideMarkedCall == true)
        cache.setValue(Tracked(id + 1), forKey: 1)
        Tracked.marking { cache.setValue(Tracked(id + 2), forKey: 1) }  // the replaced value goes at once too
        #expect(Tracked.deallocation(of: id + 1)?.insideMarkedCall == true)
    }

    @Test func memoryPressureCallsTheHandlerAndPurges() {
        let cache = MemoryCache<Int, Int>()
        let called = Atomic<Int>(0)
        cache.onMemoryPressure = { called.wrappingAdd(1, ordering: .relaxed) }
        for i in 0..<10 { cache.setValue(i, forKey: i) }
        cache.handleMemoryPressure()
        #expect(called.load(ordering: .relaxed) == 1)
        #expect(cache.totalCount == 0)
        cache.removesAllValuesOnMemoryPressure = false
        cache.setValue(1, forKey: 1)
        cache.handleMemoryPressure()
        #expect(cache.totalCount == 1)
    }

    @Test func reusesFreedSlotsAfterRemovals() {
        let cache = MemoryCache<Int, Int>()
        for round in 0..<5 {
            for i in 0..<1000 { cache.setValue(i + round, forKey: i) }
            for i in stride(from: 0, to: 1000, by: 2) { cache.removeValue(forKey: i) }
            #expect(cache.totalCount == 500)
            for i in 0..<1000 { cache.setValue(i, forKey: i) }
        }
        for i in 0..<1000 { #expect(cache.value(forKey: i) == i) }
    }

    @Test func negativeCostsAndLimitsCountAsZero() {
        let cache = MemoryCache<Int, Int>()
        cache.setValue(1, forKey: 1, cost: -5)
        #expect(cache.totalCost == 0)
        cache.countLimit = -1
        #expect(cache.totalCount == 0)
    }

    @Test func costsWhoseSumPassesIntMaxEvictLikeAnyOther() {
        // Without a cost limit the sum may reach Int.max; adding more evicts the least recently
        // used. The second cost of Int.max trapped: the sum overflowed an Int.
        let cache = MemoryCache<Int, Int>()
        for key in 0..<3 { cache.setValue(key, forKey: key, cost: .max) }
        #expect(!cache.contains(0) && !cache.contains(1) && cache.contains(2))
        #expect(cache.totalCost == .max)
        cache.setValue(3, forKey: 3, cost: 1)
        #expect(!cache.contains(2) && cache.contains(3))
        #expect(cache.totalCount == 1 && cache.totalCost == 1)
        cache.costLimit = nil
        cache.countLimit = nil
        cache.setValue(4, forKey: 4, cost: .max - 1)
        #expect(cache.totalCount == 2 && cache.totalCost == .max)
    }

    /// The ways an entry leaves the cache other than by being replaced.
    enum Removal: CaseIterable, Sendable {
        case evictedOverTheCountLimit, replacedByAValueOverTheCostLimit, removedWithAnEqualKey, expiredWhenRead,
            removedAsExpired, trimmed
    }

    /// Keys were released under the cache's lock when their entry went: a key whose `deinit` used
    /// the cache (one that unregisters something as it goes) took the lock again, and the thread
    /// deadlocked.
    @Test(arguments: Removal.allCases) func aKeyWhoseReleaseUsesTheCacheDoesNotDeadlockIt(_ removal: Removal) async {
        final class CallsBackOnRelease: Hashable, Sendable {
            let id: Int
            let onRelease: @Sendable (Int) -> Void
            init(_ id: Int, onRelease: @escaping @Sendable (Int) -> Void) { (self.id, self.onRelease) = (id, onRelease) }
            deinit { onRelease(id) }
            static func == (lhs: CallsBackOnRelease, rhs: CallsBackOnRelease) -> Bool { lhs.id == rhs.id }
            func hash(into hasher: inout Hasher) { hasher.combine(id) }
        }
        let clock = ManualClock()
        let cache = MemoryCache<CallsBackOnRelease, Int>(name: nil, clock: clock.cacheClock)
        cache.releasesValuesAsynchronously = false
        let released = Locked<[Int]>([])
        let key = { @Sendable (id: Int) in
            CallsBackOnRelease(id) { [weak cache] id in
                _ = cache?.totalCount
                released.withLock { $0.append(id) }
            }
        }
        cache.setValue(1, forKey: key(1), expiresAfter: .seconds(1))
        clock.advance(by: .seconds(2))
        let finished = await returnsInTime {
            switch removal {
            case .evictedOverTheCountLimit:
                cache.countLimit = 1
                cache.setValue(2, forKey: key(2))
            case .replacedByAValueOverTheCostLimit:
                cache.costLimit = 10
                cache.setValue(2, forKey: key(1), cost: 11)
            case .removedWithAnEqualKey: cache.removeValue(forKey: key(1))
            case .expiredWhenRead: _ = cache.value(forKey: key(1))
            case .removedAsExpired: cache.removeExpiredValues()
            case .trimmed: cache.trim(toCount: 0)
            }
        }
        #expect(finished, "removing the entry deadlocked")
        guard finished else { return }
        #expect(cache.totalCount == (removal == .evictedOverTheCountLimit ? 1 : 0))
        // The stored key is released, and so is the caller's equal one where there was one.
        let expected = [.replacedByAValueOverTheCostLimit, .removedWithAnEqualKey, .expiredWhenRead].contains(removal) ? [1, 1] : [1]
        #expect(released.withLock { $0 } == expected)
    }

    /// The memory-pressure handler a new one replaced was released under the cache's lock, and
    /// with it whatever it captured: a deinit there that used the cache deadlocked.
    @Test func replacingTheMemoryPressureHandlerReleasesTheOldOneOutsideTheLock() async {
        final class CallsBackOnRelease: Sendable {
            let cache: MemoryCache<Int, Int>
            init(_ cache: MemoryCache<Int, Int>) { self.cache = cache }
            deinit { _ = cache.onMemoryPressure }
        }
        let cache = MemoryCache<Int, Int>()
        cache.onMemoryPressure = { [captured = CallsBackOnRelease(cache)] in withExtendedLifetime(captured) {} }
        let finished = await returnsInTime { cache.onMemoryPressure = nil }
        #expect(finished, "replacing the handler deadlocked")
    }
}

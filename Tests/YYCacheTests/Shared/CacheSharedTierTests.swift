import Foundation
import Logging
import SharedTierDoubles
import TestSupport
import Testing
import YYDispatch

@testable import YYCache

@Suite struct CacheSharedTierTests {
    let folder = TemporaryDirectory("shared-tier")
    let tier = InMemorySharedTier()

    private func makeCache(_ name: String, logger: Logger? = nil) throws -> Cache<String> {
        if let logger { return try Cache<String>(path: folder.appending(name), sharedTier: tier, logger: logger) }
        return try Cache<String>(path: folder.appending(name), sharedTier: tier)
    }

    @Test func aValueWrittenByOneCacheIsReadByAnotherThroughTheTierAndPromoted() async throws {
        let writer = try makeCache("a")
        let reader = try makeCache("b")
        // An hour, so that a slow, loaded test run is far from it.
        try await writer.setValue("hello", forKey: "k", expiresAfter: .seconds(3_600))
        #expect(try await reader.value(forKey: "k") == "hello")
        #expect(reader.sharedTierStatistics.hits == 1)
        // Promoted with the time it had left: on disk (a new cache on b's folder has it) and in memory.
        let expiration = try #require(try await reader.diskCache.entry(forKey: "k")?.expirationDate)
        #expect((3_000...3_600).contains(expiration.timeIntervalSinceNow))
        #expect(reader.memoryCache.value(forKey: "k") == "hello")
        #expect(try await reader.value(forKey: "k") == "hello")
        #expect(tier.state.withLock(\.reads) == 1, "the second read is a memory hit")
    }

    @Test func removalsReachTheTier() async throws {
        let writer = try makeCache("a")
        try await writer.setValue("v", forKey: "k")
        try await writer.removeValue(forKey: "k")
        #expect(try await makeCache("b").value(forKey: "k") == nil)
    }

    @Test func theSynchronousAPIQueuesItsWritesInOrder() async throws {
        let writer = try makeCache("a")
        // A synchronous context, so that the synchronous methods are the ones called.
        let writeSynchronously = { () throws in
            for index in 0..<50 { try writer.setValue("\(index)", forKey: "k\(index % 5)") }
            try writer.removeValue(forKey: "k0")
        }
        try writeSynchronously()
        await writer.flushSharedTierWrites()
        #expect(tier.state.withLock(\.writes) == (0..<50).map { "k\($0 % 5)" } + ["-k0"])
        #expect(try await makeCache("b").value(forKey: "k4") == "49")
    }

    /// A write of the synchronous API waits in the queue (its tier is slow); then the async API
    /// writes or removes the key. Sent at once, that newer write reached the tier first, and the
    /// queued one, older, replaced it there (or brought back the removed value) for every machine.
    @Test(arguments: [false, true])
    func anAsyncWriteAfterAQueuedOneOfItsKeyReachesTheTierAfterIt(removing: Bool) async throws {
        let tier = StalledSharedTier(stalling: .writes, limit: 1)
        let cache = try Cache<String>(path: folder.appending("a"), sharedTier: tier)
        let writeSynchronously = { () throws in try cache.setValue("older", forKey: "k") }
        try writeSynchronously()
        await waitUntil { tier.waitingCount == 1 }
        try #require(tier.waitingCount == 1, "the queued write never reached the tier")
        let newer = Task { if removing { try await cache.removeValue(forKey: "k") } else { try await cache.setValue("newer", forKey: "k") } }
        // The newer write has reached the tier, or waits behind the older one.
        let link = try #require(cache.tierLink)
        await waitUntil { tier.inner.state.withLock(\.writes).count == 1 || link.queuedWrites(forKey: "k") == 2 }
        tier.open()
        try await newer.value
        await cache.flushSharedTierWrites()
        let stored = tier.inner.state.withLock { $0.entries["k"] }?.data
        #expect(stored == (removing ? nil : Data("\"newer\"".utf8)))
        #expect(tier.inner.state.withLock(\.writes) == ["k", removing ? "-k" : "k"])
    }

    @Test func aFailingTierIsAMissAndASkippedWriteNeverAnError() async throws {
        let (logger, log) = CapturingLogHandler.logger()
        let cache = try makeCache("a", logger: logger)
        tier.state.withLock { $0.failing = true }
        try await cache.setValue("local", forKey: "k")
        #expect(try await cache.value(forKey: "k") == "local", "the local levels still work")
        #expect(try await cache.value(forKey: "missing") == nil)
        try await cache.removeValue(forKey: "k")
        let statistics = cache.sharedTierStatistics
        #expect(statistics == SharedTierStatistics(hits: 0, misses: 1, errors: 3, skippedWrites: 1))
        #expect(log.contains(level: .warning, "shared tier read failed"))
        #expect(log.contains(level: .warning, "shared tier write failed"))
    }

    @Test func aTierValueTheCoderCannotReadIsAMiss() async throws {
        let cache = try makeCache("a")
        tier.state.withLock { $0.entries["k"] = SharedCacheEntry(data: Data("not json".utf8), expirationDate: nil) }
        #expect(try await cache.value(forKey: "k") == nil)
        #expect(cache.sharedTierStatistics.undecodableValues == 1)
    }

    @Test func anExpiredTierEntryIsAMiss() async throws {
        let cache = try makeCache("a")
        tier.state.withLock {
            $0.entries["k"] = SharedCacheEntry(data: Data("\"old\"".utf8), expirationDate: Date().addingTimeInterval(-1))
        }
        #expect(try await cache.value(forKey: "k") == nil)
        #expect(cache.sharedTierStatistics.misses == 1)
    }

    /// A tier is anyone's code: an expiry beyond any clock trapped the conversion of the time
    /// left to milliseconds, and the process with it.
    @Test(arguments: [1e300, .infinity, .nan])
    func aTierExpiryBeyondAnyClockIsKeptForeverAndOneThatIsNotANumberIsExpired(_ seconds: Double) async throws {
        let cache = try makeCache("a")
        tier.state.withLock {
            $0.entries["k"] = SharedCacheEntry(data: Data("\"far\"".utf8), expirationDate: Date(timeIntervalSince1970: seconds))
        }
        let expected: String? = seconds.isNaN ? nil : "far"
        #expect(try await cache.value(forKey: "k") == expected)
        #expect(try await cache.value(forKey: "k") == expected)  // from the local levels when kept
        #expect(tier.state.withLock(\.reads) == (seconds.isNaN ? 2 : 1))
    }

    /// A removal the synchronous API queued had not reached the tier when the next read asked
    /// it: the removed value came back into memory and onto disk, and stayed there.
    @Test func aValueRemovedWhileItsRemovalWaitsForTheTierDoesNotComeBack() async throws {
        let stalled = StalledSharedTier()
        _ = try await stalled.inner.setData(Data("\"old\"".utf8), forKey: "k", timeToLive: nil)
        let cache = try Cache<String>(path: folder.appending("stalled"), sharedTier: stalled)
        // Synchronous contexts, so that the synchronous methods are the ones called.
        let removeSynchronously = { () throws in try cache.removeValue(forKey: "k") }
        let readLocally = { () throws -> String? in try cache.value(forKey: "k") }
        #expect(try await cache.value(forKey: "k") == "old")  // from the tier, kept locally
        try removeSynchronously()  // its removal from the tier waits
        #expect(try await cache.value(forKey: "k") == nil)
        #expect(try readLocally() == nil, "nothing was put back in memory or on disk")
        stalled.open()
        await cache.flushSharedTierWrites()
        #expect(try await stalled.inner.entry(forKey: "k") == nil)
        #expect(try await cache.value(forKey: "k") == nil)
    }

    /// A tier read under way when the key was written or removed locally promoted what it found
    /// over the newer local value, in memory and on disk.
    @Test(arguments: [false, true]) func aLocalWriteDuringATierReadIsNotOverwrittenByWhatTheReadFound(removing: Bool) async throws {
        let stalled = StalledSharedTier(stalling: .reads)
        _ = try await stalled.inner.setData(Data("\"old\"".utf8), forKey: "k", timeToLive: nil)
        let cache = try Cache<String>(path: folder.appending("racing"), sharedTier: stalled)
        // The read runs on a queue of its own: in a full parallel test run the concurrency pool
        // was once busy for over a minute before a task of it reached the tier.
        let reader = try DispatchQueuePool(name: "tier-reader", queueCount: 1)
        let reading = Task(executorPreference: reader) { try await cache.value(forKey: "k") }
        await waitUntil { stalled.waitingCount == 1 }
        try #require(stalled.waitingCount == 1, "the read never reached the tier")
        if removing { try await cache.removeValue(forKey: "k") } else { try await cache.setValue("new", forKey: "k") }
        stalled.open()
        #expect(try await reading.value == "old")  // the read began before the write
        let readLocally = { () throws -> String? in try cache.value(forKey: "k") }
        #expect(try readLocally() == (removing ? nil : "new"), "the tier's older value was kept")
    }

    @Test func withoutATierTheCountersStayZero() async throws {
        let cache = try Cache<String>(path: folder.appending("plain"))
        try await cache.setValue("v", forKey: "k")
        await cache.flushSharedTierWrites()
        #expect(cache.sharedTier == nil)
        #expect(cache.sharedTierStatistics == SharedTierStatistics())
    }
}

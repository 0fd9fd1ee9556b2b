import Foundation
import SharedTierDoubles
import Synchronization
import TestSupport
import Testing
import YYDispatch

@testable import YYCache

@Suite struct CacheFillTests {
    let folder = TemporaryDirectory("fill")

    /// A fill that waits until released, so that every caller arrives while it runs.
    final class GatedFill: Sendable {
        let runs = Atomic<Int>(0)
        let gate = AsyncStream<Void>.makeStream()

        func run(_ value: String) async throws -> String {
            runs.add(1, ordering: .relaxed)
            for await _ in gate.stream { break }
            return value
        }
    }

    @Test func concurrentCallersInOneProcessShareOneFill() async throws {
        let cache = try Cache<String>(path: folder.appending("a"))
        let fill = GatedFill()
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await cache.value(forKey: "k") { try await fill.run("filled") } } }
            // Every caller is waiting on the one running fill before it is let go.
            await waitUntil { cache.fills.runningCount != 0 }
            fill.gate.continuation.yield()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: "filled", count: 50))
        #expect(fill.runs.load(ordering: .relaxed) == 1)
        #expect(try await cache.value(forKey: "k") == "filled", "the result is stored")
    }

    /// A fill reads its source before this process writes or removes the key (an invalidation
    /// after the source changed): its value went over the newer one, or brought the removed one
    /// back, until it expired.
    @Test(arguments: [false, true])
    func aWriteOrRemovalWhileTheFillRunsIsNotUndoneByIt(removing: Bool) async throws {
        let cache = try Cache<String>(path: folder.appending("a"))
        let fill = GatedFill()
        let caller = Task { try await cache.value(forKey: "k") { try await fill.run("filled") } }
        await waitUntil { fill.runs.load(ordering: .relaxed) != 0 }
        if removing { try await cache.removeValue(forKey: "k") } else { try await cache.setValue("newer", forKey: "k") }
        fill.gate.continuation.yield()
        #expect(try await caller.value == "filled", "the callers get the fill's value")
        #expect(try await cache.value(forKey: "k") == (removing ? nil : "newer"))
        #expect(cache.localWrites.keysInFlight == 0)
    }

    /// Another machine removes the key (an invalidation after its source changed) or writes it
    /// while this one fills it: the fill read its source before that, and its value went into
    /// every level, over the newer state, until it expired.
    @Test(arguments: [false, true])
    func aRemovalOrWriteOnAnotherMachineWhileTheFillRunsIsNotUndoneByIt(removing: Bool) async throws {
        let tier = InMemorySharedTier()
        let here = try Cache<String>(path: folder.appending("here"), sharedTier: tier)
        let elsewhere = try Cache<String>(path: folder.appending("elsewhere"), sharedTier: tier)
        let fill = GatedFill()
        let caller = Task { try await here.value(forKey: "k") { try await fill.run("filled") } }
        await waitUntil { fill.runs.load(ordering: .relaxed) != 0 }
        if removing { try await elsewhere.removeValue(forKey: "k") } else { try await elsewhere.setValue("newer", forKey: "k") }
        fill.gate.continuation.yield()
        #expect(try await caller.value == "filled", "the callers get the fill's value")

        let expected = removing ? nil : "newer"
        #expect(try await here.value(forKey: "k") == expected, "this machine keeps the fill's value")
        #expect(try await elsewhere.value(forKey: "k") == expected)
        #expect(
            try await Cache<String>(path: folder.appending("third"), sharedTier: tier).value(forKey: "k") == expected,
            "the tier keeps the fill's value")
        #expect(here.sharedTierStatistics.supersededFills == 1)
        #expect(tier.state.withLock { $0.locks.isEmpty }, "the filler released its lock, superseded or not")
    }

    /// The tier holds a value for the key that this cache cannot decode (another type's, or an
    /// older version's): the fill's value replaces it. Refused as if a write had come while the
    /// fill ran, it was kept in no level, and every call ran the fill again.
    @Test func aFillReplacesATierValueThatTheCacheCannotUse() async throws {
        let tier = InMemorySharedTier()
        _ = try await tier.setData(Data("\"text\"".utf8), forKey: "k", timeToLive: nil)
        let cache = try Cache<Int>(path: folder.appending("a"), sharedTier: tier)
        let fills = Atomic<Int>(0)
        for _ in 0..<2 {
            #expect(
                try await cache.value(forKey: "k") {
                    fills.add(1, ordering: .relaxed); return 42
                } == 42)
        }
        #expect(fills.load(ordering: .relaxed) == 1)
        #expect(tier.state.withLock { $0.entries["k"] }?.data == Data("42".utf8))
        #expect(cache.sharedTierStatistics.supersededFills == 0)
    }

    /// A synchronous removal of the key is queued for the tier just before a fill: sent after the
    /// fill took its lock, it marked the lock superseded, and the fill's value was kept nowhere.
    @Test func aFillWaitsForTheQueuedWritesOfItsKeyBeforeTakingTheLock() async throws {
        let tier = StalledSharedTier(stalling: .writes, limit: 1)
        _ = try await tier.inner.setData(Data("\"old\"".utf8), forKey: "k", timeToLive: nil)
        let cache = try Cache<String>(path: folder.appending("a"), sharedTier: tier)
        let removeSynchronously = { () throws in try cache.removeValue(forKey: "k") }
        try removeSynchronously()
        await waitUntil { tier.waitingCount == 1 }
        try #require(tier.waitingCount == 1, "the queued removal never reached the tier")
        let link = try #require(cache.tierLink)
        let fills = Atomic<Int>(0)
        let caller = Task {
            try await cache.value(forKey: "k") {
                fills.add(1, ordering: .relaxed); return "new"
            }
        }
        // The fill waits for the removal to be sent, or has run without waiting.
        await waitUntil { link.flushesWaiting > 0 || fills.load(ordering: .relaxed) > 0 }
        tier.open()
        #expect(try await caller.value == "new")
        #expect(try await cache.value(forKey: "k") == "new", "the fill's value is kept")
        #expect(cache.sharedTierStatistics.supersededFills == 0)
        #expect(fills.load(ordering: .relaxed) == 1)
    }

    @Test func aStoredValueIsReturnedWithoutFilling() async throws {
        let cache = try Cache<String>(path: folder.appending("a"))
        try await cache.setValue("stored", forKey: "k")
        let value = try await cache.value(forKey: "k") {
            Issue.record("filled"); return "filled"
        }
        #expect(value == "stored")
    }

    @Test func aFailedFillIsRethrownToEveryWaiterAndTheNextCallFillsAgain() async throws {
        struct Refused: Error {}
        let cache = try Cache<String>(path: folder.appending("a"))
        await #expect(throws: Refused.self) { try await cache.value(forKey: "k") { throw Refused() } }
        #expect(cache.fills.runningCount == 0)
        #expect(try await cache.value(forKey: "k") { "second" } == "second")
    }

    @Test func withATierTheFillRunsUnderItsLockAndReleasesIt() async throws {
        let tier = InMemorySharedTier()
        let cache = try Cache<String>(path: folder.appending("a"), sharedTier: tier)
        let value = try await cache.value(forKey: "k") {
            #expect(tier.state.withLock { $0.locks["k"] } != nil, "the lock is held while filling")
            return "filled"
        }
        #expect(value == "filled")
        #expect(tier.state.withLock { $0.locks.isEmpty })
        #expect(tier.state.withLock { $0.entries["k"] }?.data == Data("\"filled\"".utf8))
    }

    @Test func aProcessThatFindsTheLockHeldWaitsForTheHoldersResult() async throws {
        let tier = InMemorySharedTier()
        tier.state.withLock { $0.locks["k"] = "another process" }
        let cache = try Cache<String>(path: folder.appending("a"), sharedTier: tier)
        // A lock life far beyond the test's: under a loaded machine the waiter must not give up
        // waiting and fill on its own before the holder is done.
        let waiter = Task { try await cache.value(forKey: "k", fillLockTimeToLive: .seconds(3600)) { "filled here" } }
        // The other process stores its result and releases its lock once this one is waiting.
        await waitUntil { tier.state.withLock({ $0.reads }) >= 2 }
        let other = try Cache<String>(path: folder.appending("other"), sharedTier: tier)
        try await other.setValue("filled there", forKey: "k")
        await other.flushSharedTierWrites()
        #expect(tier.state.withLock { $0.entries["k"] } != nil, "the result is in the tier before the lock goes")
        tier.state.withLock { $0.locks["k"] = nil }
        #expect(try await waiter.value == "filled there")
    }

    /// A lock that never expires (a key another program set): the waiter waited for ever.
    @Test func aLockHeldLongerThanALockLivesIsFilledWithout() async throws {
        let tier = InMemorySharedTier()
        tier.state.withLock { $0.locks["k"] = "not a filler" }
        let cache = try Cache<String>(path: folder.appending("a"), sharedTier: tier)
        let filling = Task { try await cache.value(forKey: "k", fillLockTimeToLive: .milliseconds(200), orFill: { "filled here" }) }
        let ended = Locked(false)
        let watcher = Task {
            _ = await filling.result; ended.withLock { $0 = true }
        }
        // Ten minutes: only a missing fix waits that long. In the whole suite this test took 60 to
        // 80 s, not the lock's 200 ms: it runs beside the cache stress suites, which hold the two
        // cores (and the threads its awaits resume on) for about as long.
        await waitUntil(timeout: .seconds(600)) { ended.withLock { $0 } }
        #expect(ended.withLock { $0 }, "still waiting for the lock after 10 minutes")
        #expect(tier.state.withLock { $0.locks["k"] } == "not a filler")
        tier.state.withLock { $0.locks["k"] = nil }  // so that a waiter that never gives up ends
        await watcher.value
        #expect(try await filling.value == "filled here")
        #expect(try await Cache<String>(path: folder.appending("b"), sharedTier: tier).value(forKey: "k") == "filled here")
    }

    /// The fill is shared, so a caller that is cancelled does not cancel it; it stops waiting
    /// (it waited for the fill to end).
    @Test func aCancelledCallerStopsWaitingAndTheSharedFillGoesOnForTheOthers() async throws {
        let cache = try Cache<String>(path: folder.appending("a"))
        let fill = GatedFill()
        let first = Task { try await cache.value(forKey: "k") { try await fill.run("filled") } }
        await waitUntil { cache.fills.runningCount != 0 }
        let second = Task { try await cache.value(forKey: "k") { try await fill.run("filled again") } }
        second.cancel()
        let ended = Locked(false)
        let watcher = Task { () -> (any Error)? in
            defer { ended.withLock { $0 = true } }
            do { _ = try await second.value } catch { return error }
            return nil
        }
        await waitUntil(timeout: .seconds(600)) { ended.withLock { $0 } }  // as above
        #expect(ended.withLock { $0 }, "the cancelled caller still waits after 10 minutes")
        #expect(cache.fills.runningCount == 1)
        fill.gate.continuation.yield()
        #expect(await watcher.value is CancellationError)
        #expect(try await first.value == "filled")
        #expect(fill.runs.load(ordering: .relaxed) == 1)
    }

    @Test func aDownTierMeansEachProcessFillsOnItsOwn() async throws {
        let tier = InMemorySharedTier()
        tier.state.withLock { $0.failing = true }
        let cache = try Cache<String>(path: folder.appending("a"), sharedTier: tier)
        #expect(try await cache.value(forKey: "k") { "filled" } == "filled")
        #expect(cache.sharedTierStatistics.errors >= 2)
    }
}

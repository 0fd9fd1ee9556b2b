import Foundation
import NIOCore
import Synchronization
import TestSupport
import TestTraits
import Testing
import YYCache

@testable import YYCacheRedis

@Suite(.needsRedisServer, .hangLimit) struct RedisCacheTierTests {
    let folder = TemporaryDirectory("redis-tier")
    let server: RedisServer
    let client: RedisClient

    init() throws {
        server = try RedisServer()
        client = try makeClient([server.url])
    }

    private func makeCache(_ name: String, tier: RedisCacheTier? = nil) throws -> Cache<Data> {
        try Cache<Data>(path: folder.appending(name), sharedTier: tier ?? RedisCacheTier(client: client))
    }

    @Test func cachesWithSeparateFoldersShareValuesThroughRedisKeepingTheirTimeToLive() async throws {
        let writer = try makeCache("a")
        let reader = try makeCache("b")
        let value = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        // An hour, so that a slow, loaded test run is far from it.
        try await writer.setValue(value, forKey: "image/1", expiresAfter: .seconds(3_600))
        #expect(try await reader.value(forKey: "image/1") == value)
        let expiration = try #require(try await reader.diskCache.entry(forKey: "image/1")?.expirationDate)
        #expect((3_000...3_600).contains(expiration.timeIntervalSinceNow))
        let remaining = try await client.send(RedisCommand("PTTL", ["yycache:image/1"]))
        guard case .integer(let milliseconds) = remaining else { Issue.record("PTTL answered \(remaining)"); return }
        #expect((3_000_000...3_600_000).contains(milliseconds), "Redis expires it by itself")
        #expect(reader.sharedTierStatistics.hits == 1)
    }

    @Test func aTimeToLiveLongerThanRedisTakesIsCappedAt100YearsNotRefused() async throws {
        let writer = try makeCache("a")
        let reader = try makeCache("b")
        try await writer.setValue(Data("v".utf8), forKey: "forever", expiresAfter: .seconds(Int64.max))
        #expect(try await reader.value(forKey: "forever") == Data("v".utf8))
        let remaining = try await client.send(RedisCommand("PTTL", ["yycache:forever"]))
        guard case .integer(let milliseconds) = remaining else { Issue.record("PTTL answered \(remaining)"); return }
        let century = Duration.longestRedisTimeToLive.components.seconds * 1000
        #expect((century - 600_000...century).contains(milliseconds))
        #expect(writer.sharedTierStatistics.errors == 0)
    }

    @Test func aRemovalReachesRedis() async throws {
        let writer = try makeCache("a")
        try await writer.setValue(Data("v".utf8), forKey: "k")
        try await writer.removeValue(forKey: "k")
        #expect(try await makeCache("b").value(forKey: "k") == nil)
        #expect(try await client.send(RedisCommand("EXISTS", ["yycache:k"])) == .integer(0))
    }

    @Test func valuesAtTheSizeLimitAreStoredAndLargerOnesStayLocal() async throws {
        let tier = RedisCacheTier(client: client, maximumValueSize: 1_000)
        let cache = try makeCache("a", tier: tier)
        try await cache.setValue(Data(count: 1_000), forKey: "at")
        try await cache.setValue(Data(count: 1_001), forKey: "over")
        #expect(try await cache.value(forKey: "over") == Data(count: 1_001), "kept locally")
        let other = try makeCache("b", tier: tier)
        #expect(try await other.value(forKey: "at") == Data(count: 1_000))
        #expect(try await other.value(forKey: "over") == nil)
        #expect(tier.statistics.skippedWrites == 1)
        #expect(cache.sharedTierStatistics.skippedWrites == 1)
    }

    @Test(arguments: ["", "\u{0}\r\n*3\r\n$3\r\n", "*", "$", "../../etc/passwd", "ключ 🔑", String(repeating: "k", count: 1 << 20)])
    func hostileKeysRoundTrip(key: String) async throws {
        let writer = try makeCache("a")
        try await writer.setValue(Data("value of \(key.count)".utf8), forKey: key)
        #expect(try await makeCache("b").value(forKey: key) == Data("value of \(key.count)".utf8))
    }

    @Test func foreignTruncatedAndCorruptValuesReadAsMissesNeverAsValues() async throws {
        let (logger, log) = CapturingLogHandler.logger()
        let tier = RedisCacheTier(client: client, logger: logger)
        var frame = StoredValueFrame.encode(Data("genuine".utf8), expiresAtMilliseconds: nil)
        let truncated = frame.getSlice(at: 0, length: frame.readableBytes - 2)!
        frame.setInteger(UInt8(ascii: "X"), at: frame.writerIndex - 1)
        let stored: [(String, ByteBuffer)] = [
            ("foreign", ByteBuffer(string: "written by another program")),
            ("truncated", truncated),
            ("corrupt", frame),
        ]
        for (key, bytes) in stored {
            try await client.send(RedisCommand("SET", arguments: [ByteBuffer(string: "yycache:" + key), bytes]))
        }
        let cache = try makeCache("a", tier: tier)
        for (key, _) in stored {
            #expect(try await cache.value(forKey: key) == nil, "\(key)")
        }
        #expect(tier.statistics.invalidValues == 3)
        #expect(log.contains(level: .warning, "not a value this tier wrote"))
        #expect(log.contains(level: .warning, "the header says"))
        #expect(log.contains(level: .warning, "checksum"))
    }

    @Test func aFullRedisOrAKeyOfTheWrongTypeIsLoggedAndAMissNotAFailure() async throws {
        let (logger, log) = CapturingLogHandler.logger()
        let cache = try Cache<Data>(path: folder.appending("a"), sharedTier: RedisCacheTier(client: client), logger: logger)
        try await client.send(RedisCommand("LPUSH", ["yycache:list", "x"]))
        #expect(try await cache.value(forKey: "list") == nil)
        #expect(log.contains(level: .warning, "WRONGTYPE"))

        try await client.send(RedisCommand("CONFIG", ["SET", "maxmemory-policy", "noeviction"]))
        try await client.send(RedisCommand("CONFIG", ["SET", "maxmemory", "1"]))
        await #expect { try await client.send(RedisCommand("SET", ["x", "y"])) } throws: { ($0 as? RedisError)?.serverErrorCode == "OOM" }
        try await cache.setValue(Data("local only".utf8), forKey: "k")
        #expect(try await cache.value(forKey: "k") == Data("local only".utf8))
        #expect(log.contains(level: .warning, "OOM"))
        #expect(cache.sharedTierStatistics == SharedTierStatistics(hits: 0, misses: 1, errors: 2, skippedWrites: 1))
    }

    /// A key's fill lock was stored under the namespace, "lock:" and the key: the very key of the
    /// value of the cache key "lock:" + key. With such a value stored (for ever), the lock could
    /// never be taken and value(forKey:orFill:) of the key waited for ever.
    @Test func aValueWhoseKeyLooksLikeAFillLockNeitherBlocksNorBreaksTheFill() async throws {
        let tier = RedisCacheTier(client: client)
        let cache = try makeCache("a", tier: tier)
        try await cache.setValue(Data("door".utf8), forKey: "lock:door-7")
        let lockKey = tier.fillLockKey("door-7")
        let client = self.client
        let filled = try await cache.value(
            forKey: "door-7", fillLockTimeToLive: .seconds(30),
            orFill: {
                // Filled under the lock: it holds this process's token (a UUID), not another value.
                guard case .bulkString(let token?) = try await client.send(RedisCommand("GET", arguments: [lockKey])),
                    UUID(uuidString: String(buffer: token)) != nil
                else { return Data("filled without the lock".utf8) }
                return Data("filled".utf8)
            })
        #expect(filled == Data("filled".utf8))
        // And the lock's own bytes never read as the other key's value.
        #expect(try await makeCache("b").value(forKey: "lock:door-7") == Data("door".utf8))
        #expect(cache.sharedTierStatistics.errors == 0)
    }

    @Test func aFillsValueIsStoredUnderItsOwnLockOverNoValueOnly() async throws {
        let tier = RedisCacheTier(client: client)
        #expect(try await tier.acquireFillLock(forKey: "k", owner: "a", timeToLive: .seconds(60)))
        #expect(
            try await tier.setFilledData(Data("v".utf8), forKey: "k", timeToLive: .seconds(60), fillLockOwner: "b", replacingUnusableValue: false)
                == .superseded,
            "another owner's lock")
        #expect(
            try await tier.setFilledData(Data("v".utf8), forKey: "k", timeToLive: .seconds(60), fillLockOwner: "a", replacingUnusableValue: false)
                == .stored)
        #expect(try await tier.entry(forKey: "k")?.data == Data("v".utf8))
        #expect(
            try await tier.setFilledData(Data("w".utf8), forKey: "k", timeToLive: nil, fillLockOwner: "a", replacingUnusableValue: false)
                == .superseded,
            "a value is stored: a write came")
        #expect(try await tier.entry(forKey: "k")?.data == Data("v".utf8))
        #expect(
            try await tier.setFilledData(Data("w".utf8), forKey: "k", timeToLive: nil, fillLockOwner: "a", replacingUnusableValue: true) == .stored,
            "the fill began with that value and could not use it")
        #expect(try await tier.entry(forKey: "k")?.data == Data("w".utf8))
    }

    /// A removal while a fill runs marks the fill's lock superseded: the fill stores nothing, no one
    /// else takes the lock meanwhile, and its owner still releases it.
    @Test func aRemovalSupersedesTheFillUnderWayAndItsOwnerStillReleasesTheLock() async throws {
        let tier = RedisCacheTier(client: client)
        #expect(try await tier.acquireFillLock(forKey: "k", owner: "a", timeToLive: .seconds(60)))
        try await tier.removeData(forKey: "k")
        #expect(
            try await tier.setFilledData(Data("stale".utf8), forKey: "k", timeToLive: .seconds(60), fillLockOwner: "a", replacingUnusableValue: false)
                == .superseded)
        #expect(try await tier.entry(forKey: "k") == nil)
        #expect(try await !tier.acquireFillLock(forKey: "k", owner: "b", timeToLive: .seconds(60)))
        try await tier.releaseFillLock(forKey: "k", owner: "a")
        #expect(try await tier.acquireFillLock(forKey: "k", owner: "b", timeToLive: .seconds(60)))
        #expect(
            try await tier.setFilledData(Data("fresh".utf8), forKey: "k", timeToLive: .seconds(60), fillLockOwner: "b", replacingUnusableValue: false)
                == .stored)
    }

    /// A removal reads the key's fill lock to mark it superseded: a lock key that holds something
    /// else (a list another program pushed) must not make the removal fail.
    @Test func aLockKeyOfAnotherTypeDoesNotStopARemoval() async throws {
        let tier = RedisCacheTier(client: client)
        try await client.send(RedisCommand("RPUSH", arguments: [tier.fillLockKey("k"), ByteBuffer(string: "x")]))
        try await tier.setData(Data("v".utf8), forKey: "k", timeToLive: nil)
        try await tier.removeData(forKey: "k")
        #expect(try await tier.entry(forKey: "k") == nil)
        #expect(tier.statistics.errors == 0)
    }

    /// A fill slower than its lock lives is still stored when nothing happened to the key: the
    /// lock is gone, not taken.
    @Test func aFillWhoseLockExpiredIsStoredWhenNoValueCame() async throws {
        let tier = RedisCacheTier(client: client)
        #expect(try await tier.acquireFillLock(forKey: "k", owner: "a", timeToLive: .milliseconds(1)))
        let lockKey = tier.fillLockKey("k")
        let client = self.client
        await waitUntil { (try? await client.send(RedisCommand("EXISTS", arguments: [lockKey]))) == .integer(0) }
        #expect(
            try await tier.setFilledData(Data("v".utf8), forKey: "k", timeToLive: nil, fillLockOwner: "a", replacingUnusableValue: false) == .stored)
    }

    /// Two caches on one Redis: one removes the key while the other fills it.
    @Test func aRemovalOnAnotherMachineWhileTheFillRunsLeavesTheFillsValueNowhere() async throws {
        let here = try makeCache("here"), elsewhere = try makeCache("elsewhere")
        let gate = AsyncStream<Void>.makeStream()
        let started = AsyncStream<Void>.makeStream()
        let caller = Task {
            try await here.value(forKey: "k") {
                started.continuation.yield()
                for await _ in gate.stream { break }
                return Data("filled".utf8)
            }
        }
        for await _ in started.stream { break }
        try await elsewhere.removeValue(forKey: "k")
        gate.continuation.yield()
        #expect(try await caller.value == Data("filled".utf8))
        #expect(try await here.value(forKey: "k") == nil)
        #expect(try await makeCache("third").value(forKey: "k") == nil)
        #expect(here.sharedTierStatistics.supersededFills == 1)
        #expect(here.sharedTierStatistics.errors == 0)
    }

    /// Another program left a value under the key that is not one of this tier's (no header): the
    /// fill's value replaces it. Refused as a write made while the fill ran, it was kept in no
    /// level, and every call ran the fill again.
    @Test func aFillReplacesAForeignValueUnderItsKey() async throws {
        let cache = try makeCache("here")
        try await client.send(RedisCommand("SET", ["yycache:k", "left by another program"]))
        let fills = Atomic<Int>(0)
        for _ in 0..<2 {
            #expect(
                try await cache.value(forKey: "k") {
                    fills.add(1, ordering: .relaxed); return Data("filled".utf8)
                } == Data("filled".utf8))
        }
        #expect(fills.load(ordering: .relaxed) == 1)
        #expect(try await makeCache("elsewhere").value(forKey: "k") == Data("filled".utf8), "the tier holds the fill's value")
        #expect(cache.sharedTierStatistics.supersededFills == 0)
    }

    /// "é" and "e\u{301}" are one key to Swift, to memory and to disk, and were two in Redis
    /// (which compares bytes): another machine could read the older value of the first written.
    @Test func keysThatSwiftCallsEqualAreOneKeyInRedis() async throws {
        let writer = try makeCache("a")
        try await writer.setValue(Data("first".utf8), forKey: "caf\u{E9}")
        try await writer.setValue(Data("second".utf8), forKey: "cafe\u{301}")
        #expect(try await writer.value(forKey: "caf\u{E9}") == Data("second".utf8))
        #expect(try await makeCache("b").value(forKey: "caf\u{E9}") == Data("second".utf8))
        #expect(try await makeCache("c").value(forKey: "cafe\u{301}") == Data("second".utf8))
        let composed = ByteBuffer(string: "yycache:caf\u{E9}"), decomposed = ByteBuffer(string: "yycache:cafe\u{301}")
        #expect(composed != decomposed)
        #expect(try await client.send(RedisCommand("EXISTS", arguments: [composed, decomposed])) == .integer(1))
        #expect(try await client.send(RedisCommand("EXISTS", arguments: [decomposed])) == .integer(0))
    }

    @Test func namespacesKeepCachesApart() async throws {
        let first = try makeCache("a", tier: RedisCacheTier(client: client, namespace: "one:"))
        let second = try makeCache("b", tier: RedisCacheTier(client: client, namespace: "two:"))
        try await first.setValue(Data("1".utf8), forKey: "k")
        #expect(try await second.value(forKey: "k") == nil)
        #expect(try await client.send(RedisCommand("EXISTS", ["one:k"])) == .integer(1))
    }
}

/// The conversions of `Duration` the client makes for Redis and for NIO's timeouts.
@Suite struct RedisDurationTests {
    @Test func nanosecondsSaturateInsteadOfWrapping() {
        #expect(Duration.seconds(1).nanoseconds == 1_000_000_000)
        #expect(Duration.seconds(-1).nanoseconds == 0)
        #expect(Duration.seconds(Int64.max).nanoseconds == .max)
        #expect((Duration.seconds(9_223_372_036) + .milliseconds(900)).nanoseconds == .max)
    }

    @Test func millisecondsRoundUpAndStayWithinWhatRedisTakes() {
        #expect(Duration.milliseconds(1500).redisMilliseconds == 1500)
        #expect(Duration.microseconds(1500).redisMilliseconds == 2)
        #expect(Duration.seconds(1).redisMilliseconds == 1000)
        #expect(Duration.zero.redisMilliseconds == 1)
        #expect(Duration.seconds(-5).redisMilliseconds == 1)
        let century = Duration.longestRedisTimeToLive.components.seconds * 1000
        #expect(Duration.seconds(Int64.max).redisMilliseconds == century)
        #expect((Duration.longestRedisTimeToLive - .milliseconds(1)).redisMilliseconds == century - 1)
    }
}

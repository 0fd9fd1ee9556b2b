import Foundation
import NIOCore
import TestSupport
import TestTraits
import Testing
import YYCache

@testable import YYCacheRedis

/// The client against a real three-master Redis Cluster started by the test: keys go to the
/// master of their slot, `MOVED` and `ASK` are followed, the tier works on it.
///
/// One test at a time: each starts three servers whose gossip, with the redis-cli processes that
/// watch it, would otherwise crowd out the timing-sensitive suites running beside them.
@Suite(.needsRedisCluster, .serialized, .hangLimit) struct RedisClusterTests {
    /// A cluster client that knows only `seeds`, its circuit breakers on `time`.
    private func clusterClient(_ seeds: [String], maximumRedirects: Int = 5, time: ManualTime = ManualTime()) throws -> RedisClient {
        var configuration = try RedisConfiguration(urls: seeds)
        configuration.topology = .cluster
        configuration.maximumRedirects = maximumRedirects
        configuration.connectionsPerNode = 2
        configuration.operationTimeout = .seconds(2)
        configuration.connectTimeout = .seconds(2)
        return RedisClient(configuration: configuration, now: time.now)
    }

    private func get(_ client: RedisClient, _ key: String) async throws -> String? {
        guard case .bulkString(let bytes) = try await client.send(RedisCommand("GET", [key]), key: ByteBuffer(string: key)) else { return nil }
        return bytes.map { String(buffer: $0) }
    }

    private func set(_ client: RedisClient, _ key: String, _ value: String) async throws {
        try await client.send(RedisCommand("SET", [key, value]), key: ByteBuffer(string: key))
    }

    @Test func keysGoToTheMasterOfTheirSlotFromOneSeed() async throws {
        let cluster = try await RedisCluster.start()
        let client = try clusterClient([cluster.urls[1]])
        let keys = (0..<300).map { "key:\($0)" }
        for key in keys { try await set(client, key, "value of \(key)") }
        for key in keys { #expect(try await get(client, key) == "value of \(key)") }
        // Every master holds the keys of its slots, and only those: nothing was redirected.
        for index in cluster.servers.indices {
            let expected = keys.filter { cluster.owner(ofSlot: HashSlot.of(ByteBuffer(string: $0))) == index }.count
            #expect(try cluster.keyCount(index) == expected)
            #expect((50...150).contains(expected))
        }
        #expect(client.nodeStatistics.map(\.redirects).reduce(0, +) == 0)
        #expect(client.nodeStatistics.count == 3, "the two other masters were learnt from the slot map")
        let masters = await client.sendToEachNode(RedisCommand("PING"))
        #expect(Set(masters.map(\.node.port)) == Set(cluster.servers.map(\.port)))
        await client.close()
    }

    @Test func ourSlotsAreTheServersSlotsForHostileKeys() async throws {
        let cluster = try await RedisCluster.start(masters: 1)
        var random = SplitMix64(seed: 7)
        let keys: [ByteBuffer] = [
            ByteBuffer(), ByteBuffer(string: "{}"), ByteBuffer(string: "{a}b"), ByteBuffer(string: "a{b}c{d}"),
            ByteBuffer(string: "line\r\nbreak"), ByteBuffer(string: "*"), ByteBuffer(string: "$"),
            ByteBuffer(bytes: (0..<256).map { UInt8($0) }), ByteBuffer(bytes: (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }),
        ]
        let node = try makeClient(cluster.urls)
        for key in keys {
            let reply = try await node.send(RedisCommand("CLUSTER", arguments: [ByteBuffer(string: "KEYSLOT"), key]))
            #expect(reply == .integer(Int64(HashSlot.of(key))), "\(key.readableBytes)-byte key")
        }
        await node.close()
    }

    @Test func aMovedSlotIsFollowedAndTheMapReloaded() async throws {
        let cluster = try await RedisCluster.start()
        let client = try clusterClient([cluster.urls[0]])
        let key = "moving key"
        let slot = HashSlot.of(ByteBuffer(string: key))
        let source = cluster.owner(ofSlot: slot), target = (source + 1) % 3
        try await set(client, key, "before the move")
        #expect(client.nodeAddress(forKey: ByteBuffer(string: key)).port == cluster.servers[source].port)

        try cluster.beginMigration(ofSlot: slot, from: source, to: target)
        try cluster.migrate(key, from: source, to: target)
        try await cluster.finishMigration(ofSlot: slot, to: target)

        // The client still thinks the source serves the slot: it is told MOVED and follows.
        #expect(try await get(client, key) == "before the move")
        let sourceStatistics = try #require(client.nodeStatistics.first { $0.node.hasSuffix(":\(cluster.servers[source].port)") })
        #expect(sourceStatistics.redirects == 1)
        #expect(sourceStatistics.failures == 0)
        #expect(client.nodeAddress(forKey: ByteBuffer(string: key)).port == cluster.servers[target].port)
        // From now on straight to the target.
        #expect(try await get(client, key) == "before the move")
        let redirects = client.nodeStatistics.map(\.redirects).reduce(0, +)
        #expect(redirects == 1)
        await client.close()
    }

    @Test func anAskIsFollowedOnceAndChangesNothing() async throws {
        let cluster = try await RedisCluster.start()
        let client = try clusterClient([cluster.urls[2]])
        let moved = "{tag}moved", staying = "{tag}staying"
        let slot = HashSlot.of(ByteBuffer(string: moved))
        let source = cluster.owner(ofSlot: slot), target = (source + 2) % 3
        try await set(client, moved, "on the target now")
        try await set(client, staying, "still on the source")

        // Mid-migration: one key of the slot has gone over, the other has not.
        try cluster.beginMigration(ofSlot: slot, from: source, to: target)
        try cluster.migrate(moved, from: source, to: target)
        #expect(try await get(client, moved) == "on the target now")
        #expect(try await get(client, staying) == "still on the source")
        #expect(client.nodeAddress(forKey: ByteBuffer(string: moved)).port == cluster.servers[source].port, "ASK moves no slot")
        let sourceStatistics = try #require(client.nodeStatistics.first { $0.node.hasSuffix(":\(cluster.servers[source].port)") })
        #expect(sourceStatistics.redirects == 1)
        // Without ASKING first, the target would have answered MOVED back to the source.
        let targetStatistics = try #require(client.nodeStatistics.first { $0.node.hasSuffix(":\(cluster.servers[target].port)") })
        #expect(targetStatistics.redirects == 0)
        await client.close()
    }

    @Test func redirectionsStopAtTheLimit() async throws {
        let cluster = try await RedisCluster.start()
        let client = try clusterClient([cluster.urls[0]], maximumRedirects: 0)
        let key = "limited"
        let slot = HashSlot.of(ByteBuffer(string: key))
        let source = cluster.owner(ofSlot: slot), target = (source + 1) % 3
        try await set(client, key, "v")
        try cluster.beginMigration(ofSlot: slot, from: source, to: target)
        try cluster.migrate(key, from: source, to: target)
        try await cluster.finishMigration(ofSlot: slot, to: target)
        await #expect { try await get(client, key) } throws: { error in
            (error as? RedisError)?.serverErrorCode == "MOVED"
        }
        await client.close()
    }

    @Test func aDeadSeedIsPassedOver() async throws {
        let cluster = try await RedisCluster.start()
        let refusing = try LoopbackPort.refusing()
        defer { withExtendedLifetime(refusing) {} }  // the port stays refused until the test ends
        let nobody = "redis://127.0.0.1:\(refusing.port)"
        let client = try clusterClient([nobody, cluster.urls[1]])
        try await set(client, "k", "v")
        #expect(try await get(client, "k") == "v")
        await client.close()
    }

    @Test func aMapThatCouldNotBeLoadedIsAskedForAgain() async throws {
        let cluster = try await RedisCluster.start()
        let time = ManualTime()
        let client = try clusterClient([cluster.urls[0], cluster.urls[1]], time: time)
        cluster.servers[0].kill()
        cluster.servers[1].kill()
        await #expect(throws: RedisError.self) { try await set(client, "k", "v") }
        // The second seed comes back, the first does not: the next request loads the map from the
        // second and reaches the third master, which never went away.
        try cluster.servers[1].restart()
        time.advance(by: .seconds(2))  // past the back-off of the seeds' circuits
        let key = try #require((0..<100).map { "key \($0)" }.first { cluster.owner(ofSlot: HashSlot.of(ByteBuffer(string: $0))) == 2 })
        // On a loaded machine the restarted node may answer late for a while: the write is tried
        // every 100 ms for up to 30 s, each try moving the breakers' clock past their back-off.
        // The old rule (a failed load never asked again) fails every try.
        var lastError: (any Error)?
        var stored = false
        await waitUntil(every: .milliseconds(100)) {
            do {
                try await set(client, key, "v")
                stored = true
            } catch {
                lastError = error
                time.advance(by: .seconds(60))
            }
            return stored
        }
        #expect(stored, "last error: \(lastError.map { "\($0)" } ?? "none")")
        #expect(try await get(client, key) == "v")
        #expect(client.nodeStatistics.count == 3, "the third master was learnt from the second seed's map")
        await client.close()
    }

    @Test func aSlotTheLoadedMapLackedReloadsItRatherThanFailingOnADeadFirstSeed() async throws {
        // One master, so no gossip can give a slot back behind the test's back.
        let cluster = try await RedisCluster.start(masters: 1)
        let refusing = try LoopbackPort.refusing()
        defer { withExtendedLifetime(refusing) {} }  // the port stays refused until the test ends
        let nobody = "redis://127.0.0.1:\(refusing.port)"
        let client = try clusterClient([nobody, cluster.urls[0]])
        let key = "added later", slot = HashSlot.of(ByteBuffer(string: key))
        try cluster.command(0, "CLUSTER", "DELSLOTS", String(slot))
        try await set(client, "other key", "loads the map without the slot")
        try cluster.command(0, "CLUSTER", "ADDSLOTS", String(slot))
        // The old rule sent the request to the first seed, dead (its circuit open), every time.
        try await set(client, key, "v")
        #expect(try await get(client, key) == "v")
        #expect(client.nodeAddress(forKey: ByteBuffer(string: key)).port == cluster.servers[0].port)
        await client.close()
    }

    @Test func aSlotNoMasterServesGoesToANodeThatAnswersAndReloadsTheMapAtMostOnceASecond() async throws {
        let cluster = try await RedisCluster.start(masters: 1)
        let refusing = try LoopbackPort.refusing()
        defer { withExtendedLifetime(refusing) {} }  // the port stays refused until the test ends
        let nobody = "redis://127.0.0.1:\(refusing.port)"
        let time = ManualTime()
        let client = try clusterClient([nobody, cluster.urls[0]], time: time)
        let key = "served by no one", slot = HashSlot.of(ByteBuffer(string: key))
        try cluster.command(0, "CLUSTER", "DELSLOTS", String(slot))
        try await set(client, "other key", "loads the map without the slot")
        let requests = { client.nodeStatistics.first { $0.node.hasSuffix(":\(cluster.servers[0].port)") }?.requests ?? 0 }
        // The node that answers says why: not the dead seed's open circuit.
        func expectUnserved(sending expected: Int) async {
            let before = requests()
            await #expect { try await set(client, key, "v") } throws: { ($0 as? RedisError)?.serverErrorCode == "CLUSTERDOWN" }
            #expect(requests() - before == expected)
        }
        await expectUnserved(sending: 2)  // CLUSTER SLOTS, then SET
        await expectUnserved(sending: 1)  // within the second: SET only
        time.advance(by: ClusterRouter.uncoveredReloadInterval)
        await expectUnserved(sending: 2)
        await client.close()
    }

    @Test func theTierWorksOnACluster() async throws {
        let cluster = try await RedisCluster.start()
        let client = try clusterClient([cluster.urls[0]])
        let tier = RedisCacheTier(client: client)
        let folder = TemporaryDirectory("redis-cluster-tier")
        let writer = try Cache<Data>(path: folder.appending("writer"), sharedTier: tier)
        let reader = try Cache<Data>(path: folder.appending("reader"), sharedTier: tier)
        let keys = (0..<60).map { "cached \($0)" }
        for key in keys { try await writer.setValue(Data(key.utf8), forKey: key) }
        await writer.flushSharedTierWrites()
        for key in keys { #expect(try await reader.value(forKey: key) == Data(key.utf8)) }
        // The fill lock (SET NX PX, then EVAL to release it) works on the slot's master too, and
        // is in the value's slot: with "lock:" and the key, every lock request was redirected.
        let filled = try await reader.value(forKey: "filled once") { Data("fill".utf8) }
        #expect(filled == Data("fill".utf8))
        for index in 0..<30 {
            #expect(try await tier.acquireFillLock(forKey: "lock \(index)", owner: "test", timeToLive: .seconds(30)))
            try await tier.releaseFillLock(forKey: "lock \(index)", owner: "test")
        }
        // So do the scripts of a removal and of a fill's store, which touch the value and its lock.
        try await reader.removeValue(forKey: "filled once")
        #expect(try await reader.value(forKey: "filled again") { Data("fill".utf8) } == Data("fill".utf8))
        #expect(client.nodeStatistics.map(\.redirects).reduce(0, +) == 0)
        #expect(tier.statistics.errors == 0)
        var keyTotal = 0
        for index in cluster.servers.indices { keyTotal += try cluster.keyCount(index) }
        #expect(keyTotal == keys.count + 1)

        // A key with a hash tag of its own has its value and its lock in two slots, which one
        // script cannot touch: its fill is stored and its removal made in two steps instead.
        let tagged = "{user:7}.profile"
        #expect(HashSlot.of(ByteBuffer(string: "yycache:" + tagged)) != HashSlot.of(tier.fillLockKey(tagged)))
        #expect(try await reader.value(forKey: tagged) { Data("tagged".utf8) } == Data("tagged".utf8))
        #expect(try await writer.value(forKey: tagged) == Data("tagged".utf8))
        try await reader.removeValue(forKey: tagged)
        #expect(try await Cache<Data>(path: folder.appending("third"), sharedTier: tier).value(forKey: tagged) == nil)
        #expect(tier.statistics.errors == 0)
        await client.close()
    }
}

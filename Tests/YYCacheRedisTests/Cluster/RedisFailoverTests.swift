import Foundation
import NIOCore
import TestSupport
import TestTraits
import Testing
import YYCache

@testable import YYCacheRedis

@Suite(.needsRedisServer, .hangLimit) struct RedisFailoverTests {
    let folder = TemporaryDirectory("redis-failover")

    @Test func aKilledNodeTurnsCallsIntoMissesAndIsUsedAgainAfterTheBackoff() async throws {
        let servers = try (0..<2).map { _ in try RedisServer() }
        let time = ManualTime()
        let client = try makeClient(servers.map(\.url), time: time)
        let tier = RedisCacheTier(client: client)
        let writer = try Cache<Data>(path: folder.appending("writer"), sharedTier: tier)
        let keys = (0..<200).map { "key \($0)" }
        for key in keys { try await writer.setValue(Data(key.utf8), forKey: key) }
        let killedNode = servers[1]
        let onKilledNode = Set(keys.filter { client.nodeAddress(forKey: ByteBuffer(string: "yycache:" + $0)).port == killedNode.port })
        #expect((51...149).contains(onKilledNode.count))

        killedNode.kill()
        let reader = try Cache<Data>(path: folder.appending("reader"), sharedTier: tier)
        for key in keys {
            // Never an error: a value from the live node, a miss for the dead one.
            let value = try await reader.value(forKey: key)
            #expect(value == (onKilledNode.contains(key) ? nil : Data(key.utf8)), "\(key)")
        }
        let killedStatistics = try #require(client.nodeStatistics.first { $0.node.hasSuffix(":\(killedNode.port)") })
        #expect(killedStatistics.isCircuitOpen)
        #expect(killedStatistics.failures == 1, "one request failed; the others skipped the node")
        #expect(killedStatistics.skippedWhileOpen == onKilledNode.count - 1)
        #expect(tier.statistics.openCircuits == 1)

        // Restarted (empty): still skipped until the back-off ends, then used again.
        try killedNode.restart()
        let key = try #require(onKilledNode.first)
        try await writer.setValue(Data("again".utf8), forKey: key)
        let direct = try makeClient([killedNode.url])
        #expect(try await direct.send(RedisCommand("EXISTS", ["yycache:" + key])) == .integer(0), "skipped while open")
        time.advance(by: client.configuration.circuitBackoff)
        // The probe may meet the connection the kill broke; the node is healthy by the second try.
        var stored = false
        for _ in 0..<3 where !stored {
            try await writer.setValue(Data("again".utf8), forKey: key)
            stored = tier.statistics.nodes.first { $0.node.hasSuffix(":\(killedNode.port)") }?.isCircuitOpen == false
            if !stored { time.advance(by: client.configuration.maximumCircuitBackoff) }
        }
        #expect(stored)
        let third = try Cache<Data>(path: folder.appending("third"), sharedTier: tier)
        #expect(try await third.value(forKey: key) == Data("again".utf8))
        #expect(try await direct.send(RedisCommand("EXISTS", ["yycache:" + key])) == .integer(1))
        await client.close()
        await direct.close()
    }

    @Test func addingAFifthServerMovesAboutAFifthOfTheKeys() async throws {
        let servers = try (0..<5).map { _ in try RedisServer() }
        let four = try makeClient(servers.prefix(4).map(\.url))
        let five = try makeClient(servers.map(\.url))
        let keys = (0..<2_000).map { "item:\($0)" }
        let fourTier = RedisCacheTier(client: four)
        for key in keys { try await fourTier.setData(Data(key.utf8), forKey: key, timeToLive: nil) }
        let fiveTier = RedisCacheTier(client: five)
        var missing: [String] = []
        for key in keys where try await fiveTier.entry(forKey: key) == nil { missing.append(key) }
        let share = Double(missing.count) / Double(keys.count)
        #expect((0.12...0.28).contains(share), "share moved: \(share)")
        // Every key that moved went to the new server.
        #expect(missing.allSatisfy { five.nodeAddress(forKey: ByteBuffer(string: "yycache:" + $0)).port == servers[4].port })
        await four.close()
        await five.close()
    }
}

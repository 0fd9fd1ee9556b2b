import Foundation
import TestSupport
import TestTraits
import Testing

/// `yy cache … --redis`: separate processes and folders sharing values through a real Redis.
@Suite(.needsRedisServer, .hangLimit) struct CacheRedisCommandTests {
    let folder = TemporaryDirectory("cli-redis")
    let server: RedisServer

    init() throws {
        server = try RedisServer()
    }

    func yy(_ arguments: String..., input: Data? = nil) throws -> ChildProcess.Output {
        try yy(arguments, input: input)
    }

    func yy(_ arguments: [String], input: Data? = nil) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess.run(binary, arguments, input: input)
    }

    @Test func twoProcessesWithSeparateFoldersShareAValueThroughRedis() throws {
        let bytes = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let set = try yy("cache", "set", "--path", folder.appending("a"), "--redis", server.url, "--ttl", "3600", "shared/key", input: bytes)
        #expect(set.status == 0, "\(set.standardError)")
        let got = try yy("cache", "get", "--path", folder.appending("b"), "--redis", server.url, "shared/key")
        #expect(got.status == 0, "\(got.standardError)")
        #expect(got.standardOutput == bytes)
        // Kept in b's folder: readable without Redis now.
        #expect(try yy("cache", "get", "--path", folder.appending("b"), "shared/key").standardOutput == bytes)
        let removed = try yy("cache", "remove", "--path", folder.appending("a"), "--redis", server.url, "shared/key")
        #expect(removed.status == 0)
        #expect(try yy("cache", "get", "--path", folder.appending("c"), "--redis", server.url, "shared/key").status == 1)
    }

    @Test func statsReportsTheRunsCountersAndEachNode() throws {
        _ = try yy("cache", "set", "--path", folder.appending("a"), "--redis", server.url, "k", input: Data("v".utf8))
        _ = try yy("cache", "get", "--path", folder.appending("b"), "--redis", server.url, "k")
        _ = try yy("cache", "get", "--path", folder.appending("b"), "--redis", server.url, "absent")
        let stats = try yy("cache", "stats", "--path", folder.appending("b"), "--redis", server.url, "--json")
        #expect(stats.status == 0, "\(stats.standardError)")
        let report = try JSONSerialization.jsonObject(with: stats.standardOutput) as? [String: Any]
        let redis = try #require(report?["redis"] as? [String: Any])
        #expect(redis["hits"] as? Int == 1)
        #expect(redis["misses"] as? Int == 1)
        #expect(redis["errors"] as? Int == 0)
        #expect(redis["openCircuits"] as? Int == 0)
        let nodes = try #require(redis["nodes"] as? [[String: Any]])
        #expect(nodes.count == 1)
        #expect(nodes.first?["node"] as? String == "127.0.0.1:\(server.port)")
        #expect(nodes.first?["reachable"] as? Bool == true)
    }

    #if RedisTLS
    @Test(.needsRedisTLS) func aTLSServerIsSharedThroughRedissWithTheAuthorityGivenByRedisCAFile() throws {
        let certificates = try TestCertificates()
        let tlsServer = try RedisServer(tls: certificates.redisArguments(serving: certificates.server))
        let trusting = ["--redis", tlsServer.url, "--redis-ca-file", certificates.authority]
        let set = try yy(["cache", "set", "--path", folder.appending("a")] + trusting + ["k"], input: Data("over TLS".utf8))
        #expect(set.status == 0, "\(set.standardError)")
        let got = try yy(["cache", "get", "--path", folder.appending("b")] + trusting + ["k"])
        #expect(got.status == 0, "\(got.standardError)")
        #expect(got.standardOutput == Data("over TLS".utf8))
        // The system's authorities do not vouch for the tests' server: a miss, never the value.
        #expect(try yy("cache", "get", "--path", folder.appending("c"), "--redis", tlsServer.url, "k").status == 1)
        let unreadable = try yy(
            "cache", "get", "--path", folder.appending("c"), "--redis", tlsServer.url,
            "--redis-ca-file", folder.appending("absent.pem"), "k")
        #expect(unreadable.status == 2)
        #expect(unreadable.standardError.contains("--redis-ca-file"))
    }
    #endif

    @Test func aRedisThatIsDownMakesNoCommandFail() throws {
        let refusing = try LoopbackPort.refusing()
        defer { withExtendedLifetime(refusing) {} }  // the port stays refused until the test ends
        let down = "redis://127.0.0.1:\(refusing.port)"
        let path = folder.appending("a")
        #expect(try yy("cache", "set", "--path", path, "--redis", down, "k", input: Data("local".utf8)).status == 0)
        #expect(try yy("cache", "get", "--path", path, "--redis", down, "k").standardOutput == Data("local".utf8))
        #expect(try yy("cache", "get", "--path", path, "--redis", down, "absent").status == 1)
        let stats = try yy("cache", "stats", "--path", path, "--redis", down)
        #expect(stats.status == 0)
        #expect(stats.text.contains("redis open circuits: 1"))
        #expect(stats.text.contains("down (cannot connect"))
    }

    @Test(.needsRedisCluster) func processesShareValuesThroughARedisClusterFromDifferentSeeds() async throws {
        let cluster = try await RedisCluster.start()
        let keys = (0..<12).map { "clustered/\($0)" }
        for key in keys {
            let set = try yy(
                "cache", "set", "--path", folder.appending("a"), "--redis", cluster.urls[0], "--redis-cluster", key, input: Data(key.utf8))
            #expect(set.status == 0, "\(set.standardError)")
        }
        for key in keys {
            let got = try yy("cache", "get", "--path", folder.appending("b"), "--redis", cluster.urls[2], "--redis-cluster", key)
            #expect(got.status == 0, "\(got.standardError)")
            #expect(got.standardOutput == Data(key.utf8))
        }
        // Each value on the master of its slot: the keys are spread over all three.
        let counts = try cluster.servers.indices.map { try cluster.keyCount($0) }
        #expect(counts.reduce(0, +) >= keys.count)
        #expect(counts.allSatisfy { $0 > 0 })
        let stats = try yy("cache", "stats", "--path", folder.appending("b"), "--redis", cluster.urls[1], "--redis-cluster", "--json")
        #expect(stats.status == 0, "\(stats.standardError)")
        let report = try JSONSerialization.jsonObject(with: stats.standardOutput) as? [String: Any]
        let nodes = try #require((report?["redis"] as? [String: Any])?["nodes"] as? [[String: Any]])
        #expect(Set(nodes.compactMap { $0["node"] as? String }) == Set(cluster.servers.map { "127.0.0.1:\($0.port)" }))
    }

    @Test func redisClusterWithoutRedisIsAUsageError() throws {
        let result = try yy("cache", "get", "--path", folder.appending("a"), "--redis-cluster", "k")
        #expect(result.status == 2)
        #expect(result.standardError.contains("--redis-cluster needs --redis"))
    }

    @Test func anUnusableRedisURLIsAUsageError() throws {
        let result = try yy("cache", "get", "--path", folder.appending("a"), "--redis", "http://h:1", "k")
        #expect(result.status == 2)
        #expect(result.standardError.contains("the scheme must be redis:// or rediss://"))
    }
}

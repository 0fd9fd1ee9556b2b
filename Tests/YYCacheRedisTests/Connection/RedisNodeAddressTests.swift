import NIOPosix
import Testing

@testable import YYCacheRedis

@Suite struct RedisNodeAddressTests {
    @Test func readsUserPasswordHostPortAndDatabase() throws {
        let address = try RedisNodeAddress(url: "redis://cache:s%40cret@10.1.2.3:6380/4")
        #expect(address == RedisNodeAddress(host: "10.1.2.3", port: 6380, user: "cache", password: "s@cret", database: 4))
        #expect(address.description == "10.1.2.3:6380/4")
    }

    @Test func anIPv6LiteralLosesItsBracketsAndGetsThemBackInItsName() throws {
        let address = try RedisNodeAddress(url: "redis://[::1]:7000/2")
        #expect(address == RedisNodeAddress(host: "::1", port: 7000, database: 2))
        #expect(address.description == "[::1]:7000/2")
        #expect(throws: RedisError.self) { try RedisNodeAddress(url: "redis://[]:7000") }
    }

    @Test func defaultsToPort6379DatabaseZeroAndNoLogin() throws {
        #expect(try RedisNodeAddress(url: "redis://localhost") == RedisNodeAddress(host: "localhost"))
        #expect(try RedisNodeAddress(url: "redis://:pw@h:1/").password == "pw")
        #expect(try RedisNodeAddress(url: "redis://:pw@h:1/").user == nil)
    }

    #if RedisTLS
    @Test func aRedissURLIsTLSToANodeOfTheSameNameSoTurningTLSOnMovesNoKey() throws {
        let address = try RedisNodeAddress(url: "rediss://cache:pw@h.example:6380/2")
        #expect(address == RedisNodeAddress(host: "h.example", port: 6380, user: "cache", password: "pw", database: 2, usesTLS: true))
        #expect(address.description == (try RedisNodeAddress(url: "redis://cache:pw@h.example:6380/2")).description)
        #expect(throws: RedisError.self) { try RedisConfiguration(urls: ["redis://h:1", "rediss://h:1"]) }
    }

    @Test func nodesThatAClusterMapNamesLogInAndUseTLSAsTheSeedsDo() throws {
        let configuration = try RedisConfiguration(urls: ["rediss://cache:pw@10.0.0.1:7000"])
        let group = MultiThreadedEventLoopGroup.singleton
        let router = ClusterRouter(seeds: configuration.nodes, now: { .zero }) { address in
            RedisNode(address: address, configuration: configuration, tls: nil, group: group, home: group.next(), now: { .zero })
        }
        #expect(
            router.node(host: "10.0.0.2", port: 7001).address
                == RedisNodeAddress(host: "10.0.0.2", port: 7001, user: "cache", password: "pw", usesTLS: true))
    }
    #else
    @Test func aRedissURLIsRefusedWithoutTheRedisTLSTrait() {
        #expect { try RedisNodeAddress(url: "rediss://h:6379") } throws: { "\($0)".contains("RedisTLS trait") }
    }
    #endif

    @Test(arguments: [
        ("http://h:6379", "scheme"),
        ("redis://:6379", "no host"),
        ("redis://h:0", "out of range"),
        ("redis://h:6379/x", "database number"),
        ("redis://h:6379/-1", "database number"),
        ("redis://h:6379?db=2", "query or fragment"),
        ("redis://h:6379/1?protocol=3", "query or fragment"),
        ("redis://h:6379/1?", "query or fragment"),
        ("redis://h:6379/1#2", "query or fragment"),
    ])
    func refusesUnusableURLs(url: String, reason: String) {
        #expect { try RedisNodeAddress(url: url) } throws: { "\($0)".contains(reason) }
    }

    @Test func aConfigurationRefusesNoURLsAndDuplicates() {
        #expect(throws: RedisError.self) { try RedisConfiguration(urls: []) }
        #expect(throws: RedisError.self) { try RedisConfiguration(urls: ["redis://a:1", "redis://a:1/0"]) }
    }
}

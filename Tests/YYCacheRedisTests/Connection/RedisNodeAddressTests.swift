import Testing
import YYCacheRedis

@Suite struct RedisNodeAddressTests {
    @Test func readsUserPasswordHostPortAndDatabase() throws {
        let address = try RedisNodeAddress(url: "redis://cache:s%40cret@10.1.2.3:6380/4")
        #expect(address == RedisNodeAddress(host: "10.1.2.3", port: 6380, user: "cache", password: "s@cret", database: 4))
        #expect(address.description == "10.1.2.3:6380/4")
    }

    @Test func defaultsToPort6379DatabaseZeroAndNoLogin() throws {
        #expect(try RedisNodeAddress(url: "redis://localhost") == RedisNodeAddress(host: "localhost"))
        #expect(try RedisNodeAddress(url: "redis://:pw@h:1/").password == "pw")
        #expect(try RedisNodeAddress(url: "redis://:pw@h:1/").user == nil)
    }

    @Test(arguments: [
        ("rediss://h:6379", "TLS"),
        ("http://h:6379", "scheme"),
        ("redis://:6379", "no host"),
        ("redis://h:0", "out of range"),
        ("redis://h:6379/x", "database number"),
        ("redis://h:6379/-1", "database number"),
    ])
    func refusesUnusableURLs(url: String, reason: String) {
        #expect { try RedisNodeAddress(url: url) } throws: { "\($0)".contains(reason) }
    }

    @Test func aConfigurationRefusesNoURLsAndDuplicates() {
        #expect(throws: RedisError.self) { try RedisConfiguration(urls: []) }
        #expect(throws: RedisError.self) { try RedisConfiguration(urls: ["redis://a:1", "redis://a:1/0"]) }
    }
}

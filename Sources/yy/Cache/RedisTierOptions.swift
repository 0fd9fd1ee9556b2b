import ArgumentParser
import Foundation
import YYCache
import YYCacheRedis

/// `--redis`, `--redis-namespace`, `--redis-ca-file` and `--redis-cluster`: the Redis tier shared
/// by `yy cache` and `yy serve`.
struct RedisTierOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Redis servers shared with other machines, as redis://[user:password@]host:port[/db] (rediss:// for TLS), "
                + "comma-separated: a third level behind the disk.",
            valueName: "URL[,URL…]"))
    var redis: String?

    @Option(name: .customLong("redis-namespace"), help: ArgumentHelp("The prefix of every key stored in Redis.", valueName: "PREFIX"))
    var redisNamespace = "yycache:"

    @Option(
        name: .customLong("redis-ca-file"),
        help: ArgumentHelp(
            "PEM certificates of the authorities that sign the rediss:// servers' certificates, trusted instead of the system's.",
            valueName: "FILE"))
    var redisCAFile: String?

    @Flag(
        name: .customLong("redis-cluster"),
        help: ArgumentHelp(
            "The --redis URLs are nodes of one Redis Cluster (any one will do): keys follow its hash slots "
                + "instead of being spread over independent servers."))
    var redisCluster = false

    /// The Redis tier named by `--redis`, or `nil` without it.
    func openRedisTier() throws(ToolFailure) -> RedisCacheTier? {
        guard let redis else {
            if redisCluster { throw .usage("--redis-cluster needs --redis") }
            if redisCAFile != nil { throw .usage("--redis-ca-file needs --redis") }
            return nil
        }
        let urls = redis.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        var configuration: RedisConfiguration
        do {
            configuration = try RedisConfiguration(urls: urls)
        } catch {
            throw .usage("--redis: \(error)")
        }
        if redisCluster { configuration.topology = .cluster }
        if let redisCAFile { try trust(redisCAFile, in: &configuration) }
        return RedisCacheTier(client: RedisClient(configuration: configuration), namespace: redisNamespace)
    }

    /// Makes `--redis-ca-file`'s certificates the only authorities the TLS connections trust.
    private func trust(_ file: String, in configuration: inout RedisConfiguration) throws(ToolFailure) {
        #if RedisTLS
        // Checked now: an unreadable file would otherwise fail every connection, which the tier
        // turns into misses, and the command would succeed without Redis.
        guard FileManager.default.isReadableFile(atPath: file) else { throw .usage("--redis-ca-file: cannot read '\(file)'") }
        configuration.tls.trustRoots = .file(file)
        #else
        throw .usage("--redis-ca-file: this yy was built without TLS (YYKit's RedisTLS trait)")
        #endif
    }
}

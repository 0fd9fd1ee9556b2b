import ArgumentParser
import Foundation
import YYCache
import YYCacheRedis

/// The options every cache subcommand shares: the folder, and optionally the Redis tier.
struct CacheLocation: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The cache folder.", valueName: "DIR"))
    var path: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Redis servers shared with other machines, as redis://[user:password@]host:port[/db] (rediss:// for TLS), "
                + "comma-separated. get, set and remove then use them as a third level; stats reports them.",
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

    /// Opens the disk cache, reporting a failure with exit code 3.
    func open() throws(ToolFailure) -> DiskCache {
        do {
            return try DiskCache(path: path)
        } catch {
            throw .failure("cannot open the cache at '\(path)': \(error)")
        }
    }

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

    /// Ends a command's use of the cache: writes the folder's batched counters and access times now
    /// (the async reads leave the last reference to the folder with a worker thread, which may
    /// still hold it when the process exits), and adds the run's Redis counters.
    func finish(_ cache: Cache<Data>, tier: RedisCacheTier?) async throws(ToolFailure) {
        if let tier { await RedisRunCounters.record(tier) }
        do {
            try await cache.diskCache.flush()
        } catch {
            throw .failure("cannot write the cache's counters at '\(path)': \(error)")
        }
    }

    /// The folder's cache with the Redis tier behind it (when `--redis` is given).
    func openTiered() throws(ToolFailure) -> (cache: Cache<Data>, tier: RedisCacheTier?) {
        let tier = try openRedisTier()
        do {
            return (try Cache<Data>(path: path, sharedTier: tier), tier)
        } catch {
            throw .failure("cannot open the cache at '\(path)': \(error)")
        }
    }
}

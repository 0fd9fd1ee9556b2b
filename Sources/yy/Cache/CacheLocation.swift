import ArgumentParser
import Foundation
import YYCache
import YYCacheRedis

/// The options every cache subcommand shares: the folder, and optionally the Redis tier.
struct CacheLocation: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The cache folder.", valueName: "DIR"))
    var path: String

    @Option(name: .long, help: ArgumentHelp(
        "Redis servers shared with other machines, as redis://[user:password@]host:port[/db], comma-separated. "
            + "get, set and remove then use them as a third level; stats reports them.",
        valueName: "URL[,URL…]"))
    var redis: String?

    @Option(name: .customLong("redis-namespace"), help: ArgumentHelp("The prefix of every key stored in Redis.", valueName: "PREFIX"))
    var redisNamespace = "yycache:"

    @Flag(name: .customLong("redis-cluster"), help: ArgumentHelp(
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
            return nil
        }
        let urls = redis.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        do {
            var configuration = try RedisConfiguration(urls: urls)
            if redisCluster { configuration.topology = .cluster }
            return RedisCacheTier(client: RedisClient(configuration: configuration), namespace: redisNamespace)
        } catch {
            throw .usage("--redis: \(error)")
        }
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

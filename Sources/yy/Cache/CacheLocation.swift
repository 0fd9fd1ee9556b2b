import ArgumentParser
import Foundation
import YYCache
import YYCacheRedis

/// The options every cache subcommand shares: the folder, and optionally the Redis tier.
struct CacheLocation: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The cache folder.", valueName: "DIR"))
    var path: String

    @OptionGroup var redisOptions: RedisTierOptions

    /// Opens the disk cache, reporting a failure with exit code 3.
    func open() throws(ToolFailure) -> DiskCache {
        do {
            return try DiskCache(path: path)
        } catch {
            throw .failure("cannot open the cache at '\(path)': \(error)")
        }
    }

    /// The Redis tier named by `--redis`, or `nil` without it.
    func openRedisTier() throws(ToolFailure) -> RedisCacheTier? { try redisOptions.openRedisTier() }

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

// A process of the cross-process fill tests: N concurrent callers of `Cache.value(forKey:orFill:)`
// on one key, with a Redis tier. Each fill counts itself with INCR on the key `fills`.
//
//   redis-fill-worker REDIS_URL CACHE_FOLDER KEY CALLERS LOCK_TTL_MS [--hang]
//
// Prints the distinct values its callers got, one per line. With --hang the fill never returns
// (the test kills the process while it holds the fill lock).
import Foundation
import YYCache
import YYCacheRedis

let arguments = CommandLine.arguments
guard arguments.count >= 6, let callers = Int(arguments[4]), let lockMilliseconds = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: redis-fill-worker REDIS_URL CACHE_FOLDER KEY CALLERS LOCK_TTL_MS [--hang]\n".utf8))
    exit(2)
}
/// The worker's whole run, in a function rather than top-level code: LeakSanitizer does not see the
/// globals of async top-level code, so values they hold at exit would be reported as leaks.
func run(callers: Int, lockMilliseconds: Int) async throws {
    let key = arguments[3]
    let hang = arguments.contains("--hang")
    // Timeouts no loaded machine misses (the default 250 ms can run out under a sanitizer with
    // the suite in parallel): a lock request that timed out would make this process fill too.
    var configuration = try RedisConfiguration(urls: [arguments[1]])
    configuration.operationTimeout = .seconds(10)
    configuration.connectTimeout = .seconds(10)
    let tier = RedisCacheTier(client: RedisClient(configuration: configuration))
    let cache = try Cache<Data>(path: arguments[2], sharedTier: tier)
    let identity = "filled by process \(ProcessInfo.processInfo.processIdentifier)"

    let values = try await withThrowingTaskGroup(of: Data.self) { group in
        for _ in 0..<callers {
            group.addTask {
                try await cache.value(forKey: key, fillLockTimeToLive: .milliseconds(lockMilliseconds)) {
                    try await tier.client.send(RedisCommand("INCR", ["fills"]))
                    if hang {
                        while true { try await Task.sleep(for: .seconds(60)) }
                    }
                    // A fill that takes a while, as real ones do, so that the other callers and
                    // processes arrive while it runs.
                    try await Task.sleep(for: .milliseconds(300))
                    return Data(identity.utf8)
                }
            }
        }
        var values = Set<Data>()
        for try await value in group { values.insert(value) }
        return values
    }
    for value in values.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        print(String(decoding: value, as: UTF8.self))
    }
    // Ends cleanly: the tier's writes sent and the connections closed, so that nothing is in
    // flight when the process exits.
    await cache.flushSharedTierWrites()
    await tier.client.close()
}

try await run(callers: callers, lockMilliseconds: lockMilliseconds)

import NIOCore
import YYCacheRedis

/// The Redis tier's counters summed over `yy cache` runs, kept in Redis itself (a hash at
/// `<namespace>yy:stats`), so that `yy cache stats --redis` can report more than its own run.
///
/// Each `get`, `set` or `remove` with `--redis` adds its counters at the end with `HINCRBY`; when
/// Redis is down those counts are lost with it, which the node list of `stats` shows.
enum RedisRunCounters {
    /// The counters, by the names `stats` prints.
    static let fields = ["hits", "misses", "errors", "skipped_writes", "invalid_values"]

    static func key(namespace: String) -> ByteBuffer { ByteBuffer(string: namespace + "yy:stats") }

    /// Adds this run's counters, then closes the client.
    static func record(_ tier: RedisCacheTier) async {
        let statistics = tier.statistics
        let values = [
            statistics.hits, statistics.misses, statistics.errors,
            statistics.skippedWrites, statistics.invalidValues,
        ]
        let key = key(namespace: tier.namespace)
        for (field, value) in zip(fields, values) where value != 0 {
            _ = try? await tier.client.send(
                RedisCommand("HINCRBY", arguments: [key, ByteBuffer(string: field), ByteBuffer(string: String(value))]), key: key)
        }
        await tier.client.close()
    }

    /// The summed counters (zeros for those never recorded), or the error that kept them unread.
    static func read(_ tier: RedisCacheTier) async -> Result<[String: Int], RedisError> {
        let key = key(namespace: tier.namespace)
        let reply: RESPValue
        do {
            reply = try await tier.client.send(RedisCommand("HGETALL", arguments: [key]), key: key)
        } catch {
            return .failure(error)
        }
        var counters = Dictionary(uniqueKeysWithValues: fields.map { ($0, 0) })
        if case .array(let items?) = reply {
            for pair in stride(from: 0, to: items.count - 1, by: 2) {
                if case .bulkString(let name?) = items[pair], case .bulkString(let value?) = items[pair + 1],
                    let number = Int(String(buffer: value))
                {
                    counters[String(buffer: name)] = number
                }
            }
        }
        return .success(counters)
    }
}

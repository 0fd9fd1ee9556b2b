/// What a ``RedisCacheTier`` saw since it was created. Counters are per process.
public struct RedisTierStatistics: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Reads that found a valid value.
    public var hits = 0
    /// Reads that found nothing, or an expired value.
    public var misses = 0
    /// Reads or writes that failed (timeouts, broken connections, server errors such as `OOM` or
    /// `WRONGTYPE`); each is also counted as a miss or a skipped write by the cache.
    public var errors = 0
    /// Stored values refused because they were foreign, truncated or corrupt (read as misses).
    public var invalidValues = 0
    /// Writes not sent: over the size limit, or the node's circuit was open.
    public var skippedWrites = 0
    /// Reads not sent because the node's circuit was open (read as misses).
    public var skippedReads = 0
    /// Per node: requests, failures and circuit state.
    public var nodes: [RedisNodeStatistics] = []

    /// Nodes whose circuit is open now.
    public var openCircuits: Int { nodes.filter(\.isCircuitOpen).count }

    public var description: String {
        "hits \(hits), misses \(misses), errors \(errors), invalid values \(invalidValues), "
            + "skipped writes \(skippedWrites), skipped reads \(skippedReads), open circuits \(openCircuits)"
    }
}

/// What a ``Cache`` saw of its ``SharedCacheTier`` since it was created. Counters are per process.
public struct SharedTierStatistics: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Reads the tier answered with a value.
    public var hits: Int = 0
    /// Reads the tier answered with nothing.
    public var misses: Int = 0
    /// Calls that threw (each is also a miss or a skipped write, and is logged).
    public var errors: Int = 0
    /// Writes that were not stored: the tier skipped them, or they failed. Also the writes and
    /// removals of the synchronous API skipped because 64 MiB of them were waiting to be sent.
    public var skippedWrites: Int = 0
    /// Values read from the tier that the cache's coder could not decode (treated as misses).
    public var undecodableValues: Int = 0
    /// Values of `value(forKey:orFill:)` kept in no level because the key was removed or written
    /// on another machine while they were filled (the callers still got them).
    public var supersededFills: Int = 0

    /// Creates counters with the given values.
    public init(hits: Int = 0, misses: Int = 0, errors: Int = 0, skippedWrites: Int = 0, undecodableValues: Int = 0, supersededFills: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.errors = errors
        self.skippedWrites = skippedWrites
        self.undecodableValues = undecodableValues
        self.supersededFills = supersededFills
    }

    public var description: String {
        "hits \(hits), misses \(misses), errors \(errors), skipped writes \(skippedWrites), undecodable \(undecodableValues), superseded fills \(supersededFills)"
    }
}

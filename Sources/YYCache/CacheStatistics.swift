/// Hit, miss and eviction counters of a cache since it was created (or last reset).
///
/// Counters are per process: two processes sharing one disk cache each count their own calls.
public struct CacheStatistics: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Lookups that found a live value.
    public var hits: Int = 0
    /// Lookups that found nothing, or an expired value.
    public var misses: Int = 0
    /// Values removed by a limit, a trim, expiry or memory pressure (not by explicit removal or overwrite).
    public var evictions: Int = 0

    /// Creates counters with the given values.
    public init(hits: Int = 0, misses: Int = 0, evictions: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
    }

    /// `hits / (hits + misses)`, or 0 before the first lookup.
    public var hitRatio: Double {
        let lookups = hits + misses
        return lookups == 0 ? 0 : Double(hits) / Double(lookups)
    }

    public var description: String {
        "hits \(hits), misses \(misses), evictions \(evictions)"
    }
}

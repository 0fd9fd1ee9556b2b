import YYDispatch

extension Duration {
    /// The longest time to live sent to Redis: 100 years. Redis refuses a `PX` whose deadline
    /// overflows its clock, and a time to live that long is forever in practice.
    static let longestRedisTimeToLive = Duration.seconds(100 * 365 * 24 * 3600)

    /// Milliseconds for `PX`: rounded up (a time to live never shortens), at least 1 (Redis
    /// refuses 0), at most ``longestRedisTimeToLive``; computed without overflow for any duration.
    var redisMilliseconds: Int64 {
        guard self > .zero else { return 1 }
        guard self < Self.longestRedisTimeToLive else { return Self.longestRedisTimeToLive.components.seconds * 1000 }
        let whole = saturatingMilliseconds
        return self > .milliseconds(whole) ? whole + 1 : whole
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to `0...Int64.max`.
    var nanoseconds: Int64 { max(0, saturatingNanoseconds) }
}

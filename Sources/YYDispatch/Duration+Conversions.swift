/// The conversions of `Duration` that the modules share, so that none writes its own.
extension Duration {
    /// The duration in whole nanoseconds (truncated toward zero), saturating at `Int64.min` and
    /// `Int64.max` instead of trapping: for clocks, timeouts and timers that count in `Int64`
    /// nanoseconds (NIO's `TimeAmount`, the player's timeline, the Redis client's deadlines).
    ///
    /// Both steps can overflow: the seconds times 10⁹, and then the fraction added to them
    /// (9,223,372,036.9 s is past `Int64.max` nanoseconds although 9,223,372,036 s is not).
    package var saturatingNanoseconds: Int64 { saturating(unitsPerSecond: 1_000_000_000) }

    /// The duration in whole milliseconds (truncated toward zero), saturating as
    /// ``saturatingNanoseconds`` does: for stores and system calls that count in milliseconds.
    package var saturatingMilliseconds: Int64 { saturating(unitsPerSecond: 1_000) }

    /// The duration in seconds, as a `Double` (Foundation's `TimeInterval`).
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole units of `1 / unitsPerSecond` s, truncated toward zero, saturating.
    private func saturating(unitsPerSecond: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: unitsPerSecond)
        let (total, carried) = whole.addingReportingOverflow(attoseconds / (1_000_000_000_000_000_000 / unitsPerSecond))
        if overflow || carried { return seconds < 0 ? .min : .max }
        return total
    }
}

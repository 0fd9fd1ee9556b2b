extension Duration {
    /// The duration in whole nanoseconds (truncated toward zero), saturating at `Int64.min` and
    /// `Int64.max` instead of trapping: for clocks, timeouts and timers that count in `Int64`
    /// nanoseconds (NIO's `TimeAmount`, the player's timeline, the Redis client's deadlines).
    ///
    /// Both steps can overflow: the seconds times 10⁹, and then the fraction added to them
    /// (9,223,372,036.9 s is past `Int64.max` nanoseconds although 9,223,372,036 s is not).
    package var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, carried) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow || carried { return seconds < 0 ? .min : .max }
        return total
    }
}

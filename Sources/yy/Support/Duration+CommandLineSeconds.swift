extension Duration {
    /// A number of seconds from the command line (already checked to be 0 or more, not NaN) as a
    /// duration in whole milliseconds, cut to `limit` seconds first: `1e300` would overflow the
    /// conversion, and a duration past the limit means "forever" to the command that asked.
    static func commandLineSeconds(_ seconds: Double, atMost limit: Double) -> Duration {
        .milliseconds(Int64(min(seconds, limit) * 1000))
    }
}

/// Times rounds of work: again and again until a time budget is spent, and at least a few times.
struct BenchStopwatch {
    /// How long a contender may keep running rounds.
    let budget: Duration
    /// Rounds run whatever the budget.
    let minimumRounds: Int

    /// The fastest of the rounds `round` ran, each a call from start to end.
    func fastestRound<Failure: Error>(_ round: () throws(Failure) -> Void) throws(Failure) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        var fastest = Duration.seconds(Int64.max)
        var rounds = 0
        while rounds < minimumRounds || start.duration(to: clock.now) < budget {
            let roundStart = clock.now
            try round()
            fastest = min(fastest, roundStart.duration(to: clock.now))
            rounds += 1
        }
        return fastest
    }
}

/// Takes a result the benchmark does not use, so that the optimizer cannot drop the work that
/// made it: the call happens, and what happens inside it is hidden from the caller.
@inline(never) func keepResult<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

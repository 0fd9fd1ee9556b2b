/// Seconds per call of each contender: every round runs each contender for about 0.2 s, the
/// contenders taking turns (so a slow phase of the machine hits them all); the best round counts.
public func measure(rounds: Int, _ contenders: [(String, () throws -> Void)]) throws -> [String: Double] {
    var best = [String: Double]()
    for _ in 0..<rounds {
        for (name, body) in contenders {
            let clock = ContinuousClock()
            var calls = 0
            let start = clock.now
            var elapsed = Duration.zero
            repeat {
                try body()
                calls += 1
                elapsed = clock.now - start
            } while elapsed < .milliseconds(200)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best[name] = min(best[name] ?? .infinity, seconds / Double(calls))
        }
    }
    return best
}

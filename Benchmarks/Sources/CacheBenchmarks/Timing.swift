/// Wall-clock timing of repeated runs; the best run is reported (least disturbed by the machine).
struct Timing {
    private(set) var seconds: [Double] = []

    /// Times `body` once and records it.
    @discardableResult
    mutating func time<R>(_ body: () throws -> R) rethrows -> R {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        let elapsed = clock.now - start
        let (s, attoseconds) = elapsed.components
        seconds.append(Double(s) + Double(attoseconds) / 1e18)
        return result
    }

    var best: Double { seconds.min() ?? .nan }
    var median: Double {
        let sorted = seconds.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}

/// A sink that keeps results alive so the optimiser cannot drop the work that produced them.
nonisolated(unsafe) var blackHole = 0

/// The 64-bit LCG shared with `scripts/diskcache_bench.py`, so both run the same operation sequence.
struct SharedLCG {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}

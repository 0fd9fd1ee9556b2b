import Foundation
#if canImport(Glibc)
import CMallocInfo
#endif

/// Seconds per call of each contender: every round runs each contender for about 0.2 s, the
/// contenders taking turns; the best round counts.
func measure(rounds: Int, _ contenders: [(String, () throws -> Void)]) throws -> [String: Double] {
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

/// Bytes the C heap has handed out and not taken back (glibc's `mallinfo2`), for peak-memory
/// sampling; 0 where it is not available.
func heapInUse() -> Int {
    #if canImport(Glibc)
    return Int(mallinfo2().uordblks)
    #else
    return 0
    #endif
}

/// A sink that keeps results alive so the optimiser cannot drop the work.
nonisolated(unsafe) var blackHole = 0

func f1(_ value: Double) -> String { String(format: "%.1f", value) }
func f2(_ value: Double) -> String { String(format: "%.2f", value) }

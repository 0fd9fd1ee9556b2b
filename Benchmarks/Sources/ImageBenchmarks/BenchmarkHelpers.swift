// Helpers of the image benchmarks: heap sampling, a sink for results, number formatting.
import Foundation

#if canImport(Glibc)
import CMallocInfo
#endif

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

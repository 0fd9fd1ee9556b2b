// The YYCache benchmarks, release build, every contender in the same run.
//
//   swift run -c release CacheBenchmarks [--memory] [--disk] [--peer FILE] [--repetitions N]
//
// --peer FILE: python-diskcache results written by scripts/diskcache_bench.py (same workloads).
// --profile-memory-store MemoryCache|NSCache|Dictionary: run only that store (for perf record).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let runMemory = arguments.contains("--memory") || !arguments.contains("--disk")
let runDisk = arguments.contains("--disk") || !arguments.contains("--memory")
let repetitions = option("--repetitions", in: arguments).flatMap(Int.init) ?? 5
let peer: [String: [String: Double]]? = option("--peer", in: arguments).flatMap { path in
    FileManager.default.contents(atPath: path).flatMap { try? JSONDecoder().decode([String: [String: Double]].self, from: $0) }
}

var sections: [String] = []
if let only = option("--profile-memory-store", in: arguments) {
    // For profilers: run one store's memory workload and nothing else.
    _ = MemoryBenchmark.run(count: 200_000, repetitions: repetitions, only: only)
    exit(0)
}
if runMemory {
    sections.append(MemoryBenchmark.report(count: 200_000, repetitions: repetitions))
}
if runDisk {
    if peer == nil { FileHandle.standardError.write(Data("note: no --peer results; python-diskcache columns are empty\n".utf8)) }
    sections.append(DiskBenchmark.report(peer: peer, repetitions: max(repetitions / 2, 2)))
}
print(sections.joined(separator: "\n\n"))
if blackHole == 42 { print("") }  // keeps results observable

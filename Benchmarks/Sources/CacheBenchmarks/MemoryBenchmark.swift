import Foundation
import Synchronization
import YYCache

/// YYCache's memory benchmark: 200,000 pairs with small values; set, set again, sequential get,
/// random get and miss, each over all keys. Peers: Foundation's `NSCache` and a `Dictionary`
/// under a `Synchronization.Mutex`.
enum MemoryBenchmark {
    /// The value stored: a small object, as YYCache's benchmark stored 4-byte `NSData`.
    final class Payload: Sendable {
        let value: UInt32
        init(_ value: UInt32) { self.value = value }
    }

    protocol Store {
        init(count: Int)
        func set(_ index: Int, _ value: Payload)
        func get(_ index: Int) -> Payload?
    }

    final class YYMemoryCacheStore: Store {
        let cache = MemoryCache<Int, Payload>()
        init(count: Int) {}
        func set(_ index: Int, _ value: Payload) { cache.setValue(value, forKey: index) }
        func get(_ index: Int) -> Payload? { cache.value(forKey: index) }
    }

    final class NSCacheStore: Store {
        let cache = NSCache<NSNumber, Payload>()
        let keys: [NSNumber]
        init(count: Int) { keys = (0..<2 * count).map { NSNumber(value: $0) } }  // keys made up front, as YYCache did
        func set(_ index: Int, _ value: Payload) { cache.setObject(value, forKey: keys[index]) }
        func get(_ index: Int) -> Payload? { cache.object(forKey: keys[index]) }
    }

    final class DictionaryMutexStore: Store {
        let storage = Mutex<[Int: Payload]>([:])
        init(count: Int) {}
        func set(_ index: Int, _ value: Payload) { storage.withLock { $0[index] = value } }
        func get(_ index: Int) -> Payload? { storage.withLock { $0[index] } }
    }

    static let operations = ["set", "set again", "get", "random get", "miss"]

    /// The timings of one store across repetitions.
    struct Timings {
        var byOperation = Dictionary(uniqueKeysWithValues: operations.map { ($0, Timing()) })
        var best: [String: Double] { byOperation.mapValues(\.best) }
    }

    /// One fresh run of every operation on a new store of type `S`, added to `timings`.
    static func runOnce<S: Store>(
        _: S.Type, count: Int, first: [Payload], second: [Payload], shuffled: [Int],
        into timings: inout Timings
    ) {
        let store = S(count: count)
        timings.byOperation["set"]!.time { for i in 0..<count { store.set(i, first[i]) } }
        timings.byOperation["set again"]!.time { for i in 0..<count { store.set(i, second[i]) } }
        timings.byOperation["get"]!.time { for i in 0..<count { blackHole &+= Int(store.get(i)?.value ?? 0) } }
        timings.byOperation["random get"]!.time { for i in shuffled { blackHole &+= Int(store.get(i)?.value ?? 0) } }
        timings.byOperation["miss"]!.time { for i in count..<(2 * count) { blackHole &+= store.get(i) == nil ? 1 : 0 } }
    }

    /// Best seconds per operation for each store. The stores take turns within every repetition,
    /// so a change in the machine's state (another process, page cache, frequency) hits them alike.
    static func run(count: Int, repetitions: Int, only: String? = nil) -> (ours: Timings, nscache: Timings, dictionary: Timings) {
        let first = (0..<count).map { Payload(UInt32($0)) }
        let second = (0..<count).map { Payload(UInt32($0 + 1)) }
        var generator = SharedLCG(state: 42)
        var shuffled = Array(0..<count)
        for i in stride(from: count - 1, to: 0, by: -1) { shuffled.swapAt(i, Int(generator.next() % UInt64(i + 1))) }
        var ours = Timings(), nscache = Timings(), dictionary = Timings()
        for _ in 0..<repetitions {
            if only == nil || only == "MemoryCache" {
                runOnce(YYMemoryCacheStore.self, count: count, first: first, second: second, shuffled: shuffled, into: &ours)
            }
            if only == nil || only == "NSCache" {
                runOnce(NSCacheStore.self, count: count, first: first, second: second, shuffled: shuffled, into: &nscache)
            }
            if only == nil || only == "Dictionary" {
                runOnce(DictionaryMutexStore.self, count: count, first: first, second: second, shuffled: shuffled, into: &dictionary)
            }
        }
        return (ours, nscache, dictionary)
    }

    static func report(count: Int, repetitions: Int) -> String {
        let results = run(count: count, repetitions: repetitions)
        let ours = results.ours.best, nscache = results.nscache.best, dictionary = results.dictionary.best
        var lines = [
            "MemoryCache, \(count) keys, best of \(repetitions) (contenders take turns in each repetition), milliseconds per pass (lower is better)",
            "",
            "| operation | MemoryCache | NSCache | Dictionary+Mutex | NSCache / MemoryCache (goal ≥ 3 on set, random get) | MemoryCache / Dictionary+Mutex (goal ≤ 2) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for op in operations {
            let speedup = nscache[op]! / ours[op]!
            let overhead = ours[op]! / dictionary[op]!
            lines.append("| \(op) | \(ms(ours[op]!)) | \(ms(nscache[op]!)) | \(ms(dictionary[op]!)) | \(ratio(speedup)) | \(ratio(overhead)) |")
        }
        return lines.joined(separator: "\n")
    }
}

func ms(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000) }
func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }

import Foundation
import YYCache

/// The disk workloads, identical to `scripts/diskcache_bench.py`: 10,000 × 100 B and 1,000 × 100 KB
/// (set, random get, miss), and python-diskcache's own mix of 100,000 operations
/// (get:set:delete = 100:10:1 over 1,000 keys). Results are operations per second.
enum DiskBenchmark {
    /// A store the workloads drive: YYCache's `DiskCache` or the raw-SQLite floor.
    struct Store {
        var set: (String, Data) -> Void
        var get: (String) -> Data?
        var remove: (String) -> Void
    }

    static func diskCache(in folder: String) -> Store {
        let cache = try! DiskCache(path: folder)
        return Store(
            set: { try! cache.setData($1, forKey: $0) },
            get: { try! cache.data(forKey: $0) },
            remove: { try! cache.removeValue(forKey: $0) })
    }

    static func rawSQLite(in folder: String) -> Store {
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = RawSQLiteStore(path: folder)
        return Store(set: store.set, get: store.get, remove: store.remove)
    }

    /// Operations per second for `set`, `get` and `miss` with `count` values of `size` bytes.
    static func sized(count: Int, size: Int, repetitions: Int, make: (String) -> Store) -> [String: Double] {
        let value = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var generator = SharedLCG(state: 7)
        var order = Array(0..<count)
        for i in stride(from: count - 1, to: 0, by: -1) { order.swapAt(i, Int(generator.next() % UInt64(i + 1))) }
        let keys = (0..<count).map { "key-\($0)" }
        let misses = (0..<count).map { "miss-\($0)" }
        var set = Timing(), get = Timing(), miss = Timing()
        for _ in 0..<repetitions {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yybench-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = make(folder)
            // Flush the previous run's dirty pages first, so write-back does not leak across runs.
            sync()
            set.time { for key in keys { store.set(key, value) } }
            get.time { for i in order { blackHole &+= store.get(keys[i])?.count ?? 0 } }
            miss.time { for key in misses { blackHole &+= store.get(key) == nil ? 1 : 0 } }
        }
        return ["set": Double(count) / set.best, "get": Double(count) / get.best, "miss": Double(count) / miss.best]
    }

    /// Operations per second of python-diskcache's mixed workload.
    static func mix(repetitions: Int, make: (String) -> Store) -> Double {
        let value = Data(repeating: 0x61, count: 100)
        let keys = (0..<1_000).map { "key-\($0)" }
        var timing = Timing()
        for _ in 0..<repetitions {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yybench-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = make(folder)
            for key in keys { store.set(key, value) }
            sync()
            var generator = SharedLCG(state: 99)
            timing.time {
                for _ in 0..<100_000 {
                    let roll = generator.next() % 111
                    let key = keys[Int(generator.next() % 1_000)]
                    if roll < 100 {
                        blackHole &+= store.get(key)?.count ?? 0
                    } else if roll < 110 {
                        store.set(key, value)
                    } else {
                        store.remove(key)
                    }
                }
            }
        }
        return 100_000 / timing.best
    }

    /// The values of ``atCostLimit(repetitions:)``: 20,000 of 10 KB fill the cache to its limit.
    static let limitFill = 20_000
    static let limitValueSize = 10_000

    /// Writes per second into a cache held at its cost limit, as the image pipeline keeps its
    /// disk: 20,000 values of 10 KB (stored inline), then 1,000 more, each followed by a look at
    /// the total size and, over the limit, a trim back to it.
    static func atCostLimit(repetitions: Int) -> Double {
        let value = Data((0..<limitValueSize).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let limit = limitFill * limitValueSize
        var timing = Timing()
        for _ in 0..<repetitions {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("yybench-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let cache = try! DiskCache(path: folder)
            for index in 0..<limitFill { try! cache.setData(value, forKey: "fill-\(index)") }
            sync()
            timing.time {
                for index in 0..<1_000 {
                    try! cache.setData(value, forKey: "new-\(index)")
                    if try! cache.totalCost > limit { try! cache.trim(toCost: limit) }
                }
            }
        }
        return 1_000 / timing.best
    }

    static func report(peer: [String: [String: Double]]?, repetitions: Int) -> String {
        var rows: [(workload: String, ours: Double, raw: Double, peer: Double?, goal: Double)] = []
        for (name, count, size, goal) in [("10,000 × 100 B", 10_000, 100, 5.0), ("1,000 × 100 KB", 1_000, 100_000, 1.5)] {
            let ours = sized(count: count, size: size, repetitions: repetitions, make: diskCache)
            let raw = sized(count: count, size: size, repetitions: repetitions, make: rawSQLite)
            let peerKey = size == 100 ? "small" : "large"
            for op in ["set", "get", "miss"] {
                rows.append(("\(name) \(op)", ours[op]!, raw[op]!, peer?[peerKey]?[op], goal))
            }
        }
        rows.append(
            (
                "mix 100k get:set:delete 100:10:1", mix(repetitions: repetitions, make: diskCache),
                mix(repetitions: repetitions, make: rawSQLite), peer?["mix"]?["ops"], 5.0
            ))
        var lines = [
            "DiskCache, best of \(repetitions), operations per second (higher is better)",
            "",
            "| workload | DiskCache | python-diskcache | DiskCache / diskcache (goal) | raw SQLite | raw SQLite / DiskCache (goal ≤ 1.5) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for row in rows {
            let peerText = row.peer.map { String(format: "%.0f", $0) } ?? "not run"
            let peerRatio = row.peer.map { "\(ratio(row.ours / $0)) (≥ \(String(format: "%.1f", row.goal)))" } ?? "-"
            lines.append(
                "| \(row.workload) | \(String(format: "%.0f", row.ours)) | \(peerText) | \(peerRatio) | \(String(format: "%.0f", row.raw)) | \(ratio(row.raw / row.ours)) |"
            )
        }
        let limited = atCostLimit(repetitions: repetitions)
        let limitedPeer = peer?["limit"]?["set"]
        lines += [
            "",
            "DiskCache held at its cost limit (20,000 values of 10 KB, then 1,000 more), best of \(repetitions), writes per second (higher is better)",
            "",
            "| workload | DiskCache | python-diskcache (size_limit) | DiskCache / diskcache |",
            "|---|---:|---:|---:|",
            "| 1,000 × 10 KB set at the limit | \(String(format: "%.0f", limited)) | \(limitedPeer.map { String(format: "%.0f", $0) } ?? "not run") | \(limitedPeer.map { ratio(limited / $0) } ?? "-") |",
        ]
        return lines.joined(separator: "\n")
    }
}

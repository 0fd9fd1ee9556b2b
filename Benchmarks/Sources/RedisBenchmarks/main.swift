// The Redis tier's benchmarks: SET and GET of 100 B and 100 KB values by 1 and by 32 concurrent
// callers through RedisClient (the single caller also on the client's task executor), against
// redis-py (with hiredis) and redis-benchmark doing the same in the same run, and the cost of a
// Cache memory hit with and without the tier.
//
//   RedisBenchmarks --port PORT [--rounds N] [--peers results/redis-peers.json] [--connections N] [--only SIZE/CALLERS]
//                   [--cluster-seed PORT]   # also 32 callers against a Redis Cluster, one of whose nodes listens on PORT
//   RedisBenchmarks --port PORT --nio-global-executor [--rounds N] [--peers FILE]
//                   # only the single caller, in a process whose tasks all run on NIO's event loops
//
// Prints Markdown tables. The peers' figures come from the run script, which measures them against
// the same server just before.
import BenchmarkSupport
import Foundation
import NIOCore
import NIOExecutorOption
import YYCache
import YYCacheRedis

/// `--nio-global-executor`: NIO's event loops become Swift's global executor before anything else
/// runs, as a server may do at start-up, so a task that awaits a reply resumes on the loop that
/// read it instead of waking a thread of the concurrency pool. Only the single caller runs.
let nioIsGlobalExecutor = installNIOGlobalExecutorIfAsked()

guard let port = commandLineOption("--port").flatMap(Int.init) else {
    fatalError("usage: RedisBenchmarks --port PORT [--rounds N] [--peers FILE]")
}
let rounds = commandLineOption("--rounds").flatMap(Int.init) ?? 3
let url = "redis://127.0.0.1:\(port)"
let keyCount = 1_000

struct Workload: Hashable {
    var size: Int
    var concurrency: Int
    /// Whether the callers run under `withTaskExecutorPreference(client.taskExecutor)`.
    var onClientExecutor = false
    var operations: Int { size <= 1_000 ? 100_000 : 10_000 }
    var name: String {
        "\(size == 100 ? "100 B" : "100 KB"), \(concurrency) caller\(concurrency == 1 ? "" : "s")"
            + (onClientExecutor ? " on `client.taskExecutor`" : "")
            + (nioIsGlobalExecutor ? ", NIO's loops as the global executor" : "")
    }
    var peerKey: String { "\(size)/\(concurrency)" }
}

/// `--only SIZE/CALLERS` (e.g. `100000/32`) runs that workload alone (and no memory-hit table), for
/// profilers; `--only cluster` runs only the cluster's workloads (with `--cluster-seed`).
let workloads = [100, 100_000].flatMap { size in
    [Workload(size: size, concurrency: 1), Workload(size: size, concurrency: 1, onClientExecutor: true), Workload(size: size, concurrency: 32)]
}.filter { workload in commandLineOption("--only").map { $0 == workload.peerKey } ?? true }
    .filter { workload in !nioIsGlobalExecutor || (workload.concurrency == 1 && !workload.onClientExecutor) }

/// Operations per second of `operations` calls of `body` shared by `concurrency` tasks.
func rate(_ workload: Workload, _ body: @escaping @Sendable (Int) async throws -> Void) async throws -> Double {
    let share = workload.operations / workload.concurrency
    let callers: @Sendable () async throws -> Void = {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workload.concurrency {
                group.addTask {
                    for index in 0..<share { try await body((worker * share + index) % keyCount) }
                }
            }
            try await group.waitForAll()
        }
    }
    let start = ContinuousClock.now
    if workload.onClientExecutor {
        try await withTaskExecutorPreference(client.taskExecutor, operation: callers)
    } else {
        try await callers()
    }
    let elapsed = ContinuousClock.now - start
    return Double(share * workload.concurrency) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

/// A client for `url` with the connections `--connections` asks for.
func makeClient(_ url: String, topology: RedisConfiguration.Topology = .independent) throws -> RedisClient {
    var configuration = try RedisConfiguration(urls: [url])
    configuration.topology = topology
    if let connections = commandLineOption("--connections").flatMap(Int.init) { configuration.connectionsPerNode = connections }
    return RedisClient(configuration: configuration)
}

let client = try makeClient(url)
let keys = (0..<keyCount).map { ByteBuffer(string: "bench:\($0)") }

/// SETs and GETs per second of `workload` through `client`.
func setAndGetRates(_ workload: Workload, through client: RedisClient) async throws -> (set: Double, get: Double) {
    let value = ByteBuffer(repeating: UInt8(ascii: "x"), count: workload.size)
    let set = try await rate(workload) { index in
        try await client.send(RedisCommand("SET", arguments: [keys[index], value]), key: keys[index])
    }
    let get = try await rate(workload) { index in
        try await client.send(RedisCommand("GET", arguments: [keys[index]]), key: keys[index])
    }
    return (set, get)
}
let tier = RedisCacheTier(client: client, namespace: "bench-tier:")
let tierKeys = (0..<keyCount).map { "k\($0)" }

var swiftRates: [Workload: (set: Double, get: Double, tierSet: Double, tierGet: Double)] = [:]
for workload in workloads {
    let data = Data(repeating: UInt8(ascii: "x"), count: workload.size)
    var best = (set: 0.0, get: 0.0, tierSet: 0.0, tierGet: 0.0)
    for _ in 0..<rounds {
        let (set, get) = try await setAndGetRates(workload, through: client)
        let tierSet = try await rate(workload) { index in
            try await tier.setData(data, forKey: tierKeys[index], timeToLive: nil)
        }
        let tierGet = try await rate(workload) { index in
            guard try await tier.entry(forKey: tierKeys[index]) != nil else { fatalError("tier miss") }
        }
        best = (max(best.set, set), max(best.get, get), max(best.tierSet, tierSet), max(best.tierGet, tierGet))
    }
    swiftRates[workload] = best
}

// The peers: {"redis-py": {"100/1": {"set": …, "get": …}}, "redis-benchmark": {…}}.
var peers: [String: [String: [String: Double]]] = [:]
if let path = commandLineOption("--peers"),
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: [String: [String: Any]]]
{
    for (peer, byWorkload) in object {
        peers[peer] = byWorkload.mapValues { $0.compactMapValues { $0 as? Double } }
    }
}

func format(_ value: Double?, _ digits: Int = 0) -> String {
    guard let value else { return "–" }
    return String(format: "%.\(digits)f", value)
}

print(
    nioIsGlobalExecutor
        ? "The single caller again, in a process that made NIO's event loops Swift's global executor before it started "
            + "(`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`), best of \(rounds), operations per second"
        : "RedisClient against one redis-server on loopback, best of \(rounds), operations per second (higher is better)")
print()
print(
    "| workload | command | RedisClient | via RedisCacheTier | redis-py + hiredis | redis-benchmark | RedisClient / redis-py (goal ≥ 2) | redis-benchmark / RedisClient (goal ≤ 1.25) |"
)
print("|---|---|---:|---:|---:|---:|---:|---:|")
for workload in workloads {
    let ours = swiftRates[workload]!
    for (command, mine, viaTier) in [("SET", ours.set, ours.tierSet), ("GET", ours.get, ours.tierGet)] {
        let python = peers["redis-py"]?[workload.peerKey]?[command.lowercased()]
        let native = peers["redis-benchmark"]?[workload.peerKey]?[command.lowercased()]
        print(
            "| \(workload.name) | \(command) | \(format(mine)) | \(format(viaTier)) | \(format(python)) | \(format(native)) | "
                + "\(python.map { format(mine / $0, 2) + "x" } ?? "–") | \(native.map { format($0 / mine, 2) + "x" } ?? "–") |")
    }
}

// A Redis Cluster: the same 32-caller workloads routed by hash slot, against `redis-benchmark --cluster`.
@MainActor func runClusterWorkloads(seed: String) async throws {
    let cluster = try makeClient("redis://127.0.0.1:\(seed)", topology: .cluster)
    print()
    print(
        "RedisClient on a three-master Redis Cluster on the same machine (`topology = .cluster`), 32 callers, best of \(rounds), operations per second"
    )
    print()
    print("| workload | command | RedisClient | redis-benchmark --cluster | redis-benchmark / RedisClient (goal ≤ 1.25) |")
    print("|---|---|---:|---:|---:|")
    for size in [100, 100_000] {
        let workload = Workload(size: size, concurrency: 32)
        var best = (set: 0.0, get: 0.0)
        for _ in 0..<rounds {
            let (set, get) = try await setAndGetRates(workload, through: cluster)
            best = (max(best.set, set), max(best.get, get))
        }
        let redirects = cluster.nodeStatistics.map(\.redirects).reduce(0, +)
        guard redirects == 0 else { fatalError("\(redirects) redirections: the slot map is wrong") }
        for (command, mine) in [("SET", best.set), ("GET", best.get)] {
            let native = peers["redis-benchmark-cluster"]?[workload.peerKey]?[command.lowercased()]
            print("| \(workload.name) | \(command) | \(format(mine)) | \(format(native)) | \(native.map { format($0 / mine, 2) + "x" } ?? "–") |")
        }
    }
    await cluster.close()
}

if commandLineOption("--only") != nil || nioIsGlobalExecutor {
    await client.close()
    if let seed = commandLineOption("--cluster-seed") { try await runClusterWorkloads(seed: seed) }
    exit(0)
}

// A memory hit must not pay for the tier: the same lookup with and without one.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redis-bench-\(ProcessInfo.processInfo.processIdentifier)").path
defer { try? FileManager.default.removeItem(atPath: folder) }
let plain = try Cache<Data>(path: folder + "/plain")
let tiered = try Cache<Data>(path: folder + "/tiered", sharedTier: tier)
let small = Data(repeating: 1, count: 100)
for cache in [plain, tiered] {
    for key in tierKeys { try cache.setValue(small, forKey: key) }
    await cache.flushSharedTierWrites()  // the tier's writes are sent before the timing starts
}
func memoryHitNanoseconds(_ cache: Cache<Data>) async throws -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for round in 0..<1_000 {
            for key in tierKeys where try await cache.value(forKey: key) == nil { fatalError("memory miss \(round)") }
        }
        let elapsed = ContinuousClock.now - start
        best = min(best, (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(1_000 * tierKeys.count))
    }
    return best
}
var hitPlain = Double.infinity
var hitTiered = Double.infinity
for _ in 0..<2 {  // taking turns, so a slow phase of the machine hits both
    hitPlain = min(hitPlain, try await memoryHitNanoseconds(plain))
    hitTiered = min(hitTiered, try await memoryHitNanoseconds(tiered))
}
print()
print("Cache<Data> memory hit (async `value(forKey:)`, 1,000 keys × 1,000 passes), nanoseconds per call (lower is better)")
print()
print("| without a tier | with RedisCacheTier | with / without (goal ≈ 1) |")
print("|---:|---:|---:|")
print("| \(format(hitPlain, 1)) | \(format(hitTiered, 1)) | \(format(hitTiered / hitPlain, 2))x |")
await client.close()

if let seed = commandLineOption("--cluster-seed") { try await runClusterWorkloads(seed: seed) }

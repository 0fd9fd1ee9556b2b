// YYWebImage's benchmarks, release build, against a loopback server serving YYKit's sample
// images (run-webimage-benchmarks starts it), every contender in the same run, turn by turn:
//   (a) 1,000 distinct images cold through ImagePipeline, against the same downloads with
//       AsyncHTTPClient and Image(data:) called directly (same concurrency: 6 connections);
//   (b) the same list with Python asyncio + aiohttp + Pillow (what a user would otherwise write);
//   (c) memory hits and disk hits per second;
//   (d) 1,000 concurrent requests for one URL: downloads and decodes.
//
//   WebImageBenchmarks --base http://127.0.0.1:PORT --files DIR [--python PATH] [--rounds N] [--count N]
//   WebImageBenchmarks --base … --files DIR --profile pipeline|direct    # ten rounds of one, for perf
//   WebImageBenchmarks --base … --files DIR --nio-global-executor [--rounds N]   # (a) alone, every task on NIO's loops
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import NIOExecutorOption
import YYCache
import YYImage
import YYWebImage

let option = commandLineOption
/// `--nio-global-executor`: every task runs on NIO's event loops (installed before anything else).
let nioIsGlobalExecutor = installNIOGlobalExecutorIfAsked()
guard let base = option("--base"), let folder = option("--files") else {
    FileHandle.standardError.write(Data("usage: WebImageBenchmarks --base URL --files DIR [--python PATH] [--rounds N] [--count N]\n".utf8))
    exit(2)
}
let rounds = option("--rounds").flatMap(Int.init) ?? 3
let count = option("--count").flatMap(Int.init) ?? 1000
let python = option("--python")
let concurrency = 6

let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
guard !names.isEmpty else { fatalError("no files in \(folder)") }
/// `count` distinct URLs over the sample files; `salt` makes each round's URLs new (cold caches).
func urls(salt: String) -> [URL] {
    (0..<count).map { URL(string: "\(base)/\(names[$0 % names.count])?\(salt)&i=\($0)")! }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

// MARK: Contenders for (a) and (b)

struct Run { var seconds: Double; var images: Int; var bytes: Int }

func pipelineRun(_ list: [URL]) async throws -> Run {
    var configuration = ImagePipeline.Configuration()
    configuration.connectionsPerHost = concurrency
    let pipeline = ImagePipeline(configuration: configuration)
    let start = ContinuousClock.now
    let images = try await withThrowingTaskGroup(of: Int.self) { group in
        for url in list { group.addTask { try await pipeline.image(for: url).image.pixelWidth > 0 ? 1 : 0 } }
        return try await group.reduce(0, +)
    }
    let elapsed = seconds(ContinuousClock.now - start)
    return Run(seconds: elapsed, images: images, bytes: pipeline.statistics.downloadedBytes)
}

/// The floor: AsyncHTTPClient and the decoder with nothing between them, six workers.
func directRun(_ list: [URL], client: HTTPClient) async throws -> Run {
    let start = ContinuousClock.now
    let next = Counter()
    let totals = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                var images = 0, bytes = 0
                while let index = next.take(below: list.count) {
                    var request = HTTPClientRequest(url: list[index].absoluteString)
                    request.headers.add(name: "Accept-Encoding", value: "identity")
                    let response = try await client.execute(request, timeout: .seconds(60))
                    let body = try await response.body.collect(upTo: 64 << 20)
                    let image = try Image(data: Data(body.readableBytesView))
                    images += image.pixelWidth > 0 ? 1 : 0
                    bytes += body.readableBytes
                }
                return (images, bytes)
            }
        }
        return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }
    return Run(seconds: seconds(ContinuousClock.now - start), images: totals.0, bytes: totals.1)
}

/// The Python peer, as a child process over the same list.
func pythonRun(_ list: [URL], python: String) throws -> Run {
    let listFile = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-urls-\(getpid()).txt")
    try list.map(\.absoluteString).joined(separator: "\n").write(to: listFile, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: listFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [benchmarksFolder.appendingPathComponent("scripts/webimage_peer.py").path, listFile.path, String(concurrency)]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard let result = try JSONSerialization.jsonObject(with: output) as? [String: Any],
        let seconds = result["seconds"] as? Double, let images = result["images"] as? Int, let bytes = result["bytes"] as? Int
    else {
        fatalError("the Python peer printed \(String(decoding: output, as: UTF8.self))")
    }
    return Run(seconds: seconds, images: images, bytes: bytes)
}

final class Counter: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

// MARK: Run

var client: HTTPClient? = HTTPClient(
    eventLoopGroupProvider: .singleton,
    configuration: .init(
        redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(15)),
        connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)))

if let contender = option("--profile") {
    // For profilers: 10 cold rounds of one contender (pipeline or direct) and nothing else.
    for round in 0..<10 {
        let list = urls(salt: "profile=\(round)")
        let run = contender == "direct" ? try await directRun(list, client: client!) : try await pipelineRun(list)
        print("\(contender) round \(round): \(String(format: "%.3f", run.seconds)) s")
    }
    try await client!.shutdown().get()
    exit(0)
}

var best: [String: Run] = [:]
@MainActor func keep(_ name: String, _ run: Run) {
    guard run.images == count else { fatalError("\(name) decoded \(run.images) of \(count) images") }
    if best[name].map({ run.seconds < $0.seconds }) ?? true { best[name] = run }
}
for round in 0..<rounds {
    keep("pipeline", try await pipelineRun(urls(salt: "pipeline=\(round)")))
    keep("direct", try await directRun(urls(salt: "direct=\(round)"), client: client!))
    if let python { keep("python", try pythonRun(urls(salt: "python=\(round)"), python: python)) }
}
try await client!.shutdown().get()
client = nil

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
/// The rows of (a): the pipeline and the direct contender, `setting` added to their workload.
@MainActor func contenderRows(setting: String = "") -> [String] {
    let pipeline = best["pipeline"]!, direct = best["direct"]!
    return [
        "| (a) \(count) images cold\(setting) | ImagePipeline | \(format(pipeline.seconds, 3)) | \(format(Double(count) / pipeline.seconds, 0)) | \(format(pipeline.seconds / direct.seconds))x the direct time (goal ≤ 1.1x) |",
        "| (a) \(count) images cold\(setting) | AsyncHTTPClient + Image(data:) | \(format(direct.seconds, 3)) | \(format(Double(count) / direct.seconds, 0)) | 1x |",
    ]
}
if nioIsGlobalExecutor {
    // Only (a): the rows the run script adds under the main table.
    for row in contenderRows(setting: ", NIO's loops as the global executor") { print(row) }
    exit(0)
}

// (c) memory hits and disk hits.
let cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: cacheFolder) }
var diskConfiguration = ImagePipeline.Configuration()
diskConfiguration.diskCache = try DiskCache(path: cacheFolder)
let warm = ImagePipeline(configuration: diskConfiguration)
let hitURLs = Array(urls(salt: "hits=1").prefix(200))
for url in hitURLs { _ = try await warm.image(for: url) }
/// Requests per second of `count` requests made one after another by one task of the concurrency
/// pool, as server code makes them (a loop on the main actor would time two thread switches per
/// request around the pipeline's work).
func requestsPerSecond(_ pipeline: ImagePipeline, cycling urls: [URL], count: Int) async throws -> Double {
    let start = ContinuousClock.now
    for index in 0..<count { _ = try await pipeline.image(for: urls[index % urls.count]) }
    return Double(count) / seconds(ContinuousClock.now - start)
}
let memoryHitCount = 200_000
let memoryHitsPerSecond = try await requestsPerSecond(warm, cycling: hitURLs, count: memoryHitCount)
precondition(warm.statistics.memoryHits == memoryHitCount)

var coldMemory = ImagePipeline.Configuration()
coldMemory.memoryCache = nil
coldMemory.diskCache = try DiskCache(path: cacheFolder)
let fromDisk = ImagePipeline(configuration: coldMemory)
let diskHitCount = 1000
let diskHitsPerSecond = try await requestsPerSecond(fromDisk, cycling: hitURLs, count: diskHitCount)
precondition(fromDisk.statistics.diskHits == diskHitCount && fromDisk.statistics.networkRequests == 0, "\(fromDisk.statistics)")

// (d) 1,000 concurrent requests for one URL.
let single = ImagePipeline(configuration: .init())
let one = URL(string: "\(base)/\(names[0])?single=1")!
let start = ContinuousClock.now
_ = try await withThrowingTaskGroup(of: Void.self) { group in
    for _ in 0..<1000 { group.addTask { _ = try await single.image(for: one) } }
    try await group.waitForAll()
}
let singleSeconds = seconds(ContinuousClock.now - start)

// MARK: Report

let pipeline = best["pipeline"]!
print(
    "\(count) distinct URLs over \(names.count) sample images (\(pipeline.bytes / count) bytes on average), \(concurrency) connections, best of \(rounds) rounds; release build."
)
print("")
print("| workload | contender | seconds | images/s | ratio |")
print("|---|---|---|---|---|")
for row in contenderRows() { print(row) }
if let peer = best["python"] {
    print(
        "| (b) \(count) images cold | Python asyncio + aiohttp + Pillow | \(format(peer.seconds, 3)) | \(format(Double(count) / peer.seconds, 0)) | pipeline throughput \(format(peer.seconds / pipeline.seconds))x Python's (goal ≥ 3x) |"
    )
}
print("| (c) memory hits | ImagePipeline | | \(format(memoryHitsPerSecond, 0)) | |")
print("| (c) disk hits (read + decode) | ImagePipeline | | \(format(diskHitsPerSecond, 0)) | |")
print(
    "| (d) 1,000 requests for one URL | ImagePipeline | \(format(singleSeconds, 3)) | | \(single.statistics.networkRequests) download, \(single.statistics.decodes) decode |"
)

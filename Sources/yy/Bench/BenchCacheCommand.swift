import ArgumentParser
import Foundation
import YYCache
import YYDispatch

/// `yy bench cache`: YYCache's memory and disk caches against what a program would otherwise use
/// in the same process: Foundation's `NSCache`, and one file per key.
struct BenchCacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Store and read values with MemoryCache and DiskCache, against NSCache and a file per key.",
        discussion: """
            A round sets --count values of --size bytes under distinct keys, then gets each once. \
            The disk rounds run in folders of their own made inside --folder, removed at the end; \
            their MB/s counts the bytes written and read. A round whose values would not fit in \
            the free space there is refused before anything runs (exit 3).
            """
    )

    @Option(help: "Values per round (at most 1,000,000).")
    var count = 1_000

    @Option(help: ArgumentHelp("Bytes per value (at most 64 MiB).", valueName: "BYTES"))
    var size = 100

    @Option(help: ArgumentHelp("Where the disk rounds make their folders (default: the temporary directory).", valueName: "DIR"))
    var folder: String?

    @OptionGroup var options: BenchOptions

    func validate() throws {
        // Bounds that keep the keys and one value in memory, whatever is asked.
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be between 1 and 1,000,000") }
        guard (0...(64 << 20)).contains(size) else { throw ValidationError("--size must be between 0 and 64 MiB (67108864)") }
    }

    func run() throws {
        let parent = URL(fileURLWithPath: folder ?? NSTemporaryDirectory(), isDirectory: true)
        try checkSpace(in: parent)
        let keys = (0..<count).map { "key-\($0)" }
        // Bytes that differ from value to value and from the start to the end of one.
        let value = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let stopwatch = options.stopwatch

        let memory = stopwatch.fastestRound {
            let cache = MemoryCache<String, Data>()
            for key in keys { cache.setValue(value, forKey: key, cost: value.count) }
            for key in keys { keepResult(cache.value(forKey: key)) }
        }
        // Bridged once, outside the rounds: a program built on NSCache holds these objects already,
        // and bridging a large `Data` copies it.
        let objectKeys = keys.map { $0 as NSString }, object = value as NSData
        let nsCache = stopwatch.fastestRound {
            let cache = NSCache<NSString, NSData>()
            for key in objectKeys { cache.setObject(object, forKey: key, cost: object.length) }
            for key in objectKeys { keepResult(cache.object(forKey: key)) }
            // Foundation's NSCache on Linux leaks its entries when it is released full (they hold
            // one another): 2,000 rounds of 1,000 entries grew the process by 125 MB. Emptied
            // first, it frees them, as MemoryCache does when released at the end of its round.
            cache.removeAllObjects()
        }

        let disk = try withScratchFolder(in: parent) { path throws(ToolFailure) in
            let cache: DiskCache
            do {
                cache = try DiskCache(path: path)
            } catch {
                throw .failure("cannot open a cache in '\(path)': \(error)")
            }
            return try stopwatch.fastestRound { () throws(ToolFailure) in
                do {
                    for key in keys { try cache.setData(value, forKey: key) }
                    for key in keys { keepResult(try cache.data(forKey: key)) }
                } catch {
                    throw .failure("\(path): \(error)")
                }
            }
        }
        let files = try withScratchFolder(in: parent) { path throws(ToolFailure) in
            let folder = URL(fileURLWithPath: path, isDirectory: true)
            return try stopwatch.fastestRound { () throws(ToolFailure) in
                do {
                    for key in keys { try value.write(to: folder.appendingPathComponent(key), options: .atomic) }
                    for key in keys { keepResult(try Data(contentsOf: folder.appendingPathComponent(key))) }
                } catch {
                    throw .failure("\(path): \(error)")
                }
            }
        }

        let calls = 2 * count
        let diskBytes = 2 * count * size
        try options.report(
            BenchRow.compared(
                [BenchRow(benchmark: "memory set + get", contender: "MemoryCache (YYCache)", roundTime: memory, operations: calls)],
                against: BenchRow(benchmark: "memory set + get", contender: "NSCache (Foundation)", roundTime: nsCache, operations: calls))
                + BenchRow.compared(
                    [BenchRow(benchmark: "disk set + get", contender: "DiskCache (YYCache)", roundTime: disk, operations: calls, bytes: diskBytes)],
                    against: BenchRow(
                        benchmark: "disk set + get", contender: "a file per key (Data.write, atomic)", roundTime: files, operations: calls,
                        bytes: diskBytes)))
    }

    /// Refuses, before anything runs, a round that would not fit on the disk: the bounds allow
    /// 64 TiB (a million values of 64 MiB), and writing until the disk is full would leave every
    /// other program on it without space until the round failed. One round's values are on disk at
    /// a time (each folder is emptied by the next round or removed); an eighth more and 1 MiB
    /// leave room for the cache's manifest and the file system's own blocks.
    private func checkSpace(in parent: URL) throws(ToolFailure) {
        // The folder may not exist yet: its nearest existing parent is on the same file system.
        var existing = parent
        while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" { existing.deleteLastPathComponent() }
        guard let available = FileSystemSpace.available(at: existing.path) else { return }
        let values = Int64(count) * Int64(size)
        let needed = values + values / 8 + (1 << 20)
        guard needed <= available else {
            throw .failure(
                "\(count) values of \(size) bytes need about \(needed) bytes of disk; the file system of '\(parent.path)' has \(available) free")
        }
    }

    /// Runs `body` with a new, empty folder inside `parent`, removed afterwards.
    private func withScratchFolder<T>(in parent: URL, _ body: (String) throws(ToolFailure) -> T) throws(ToolFailure) -> T {
        let scratch = parent.appendingPathComponent("yy-bench-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw .failure("cannot make a folder in '\(parent.path)': \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try body(scratch.path)
    }
}

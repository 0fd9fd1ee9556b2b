import CSQLite
import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYCache

/// A child process writes to a cache and is killed with SIGKILL at random moments. After each kill
/// the cache must open, every key must hold exactly its last committed value (or the one in
/// flight), never a torn one, and no orphan file may survive the reopening.
@Suite struct DiskCacheCrashSafetyTests {
    /// What a value written by `cache-crash-writer` says about itself (see its layout comment).
    struct Stamp: Equatable, CustomStringConvertible {
        var seed: UInt64
        var seq: UInt64
        var description: String { "run \(seed) write #\(seq)" }
    }

    enum Check: Equatable {
        case valid(Stamp, key: UInt32)
        case torn(String)
    }

    static func inspect(_ data: Data) -> Check {
        guard data.count >= 32 else { return .torn("only \(data.count) bytes") }
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            data.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        let length = Int(integer(20, UInt32.self))
        guard data.count == 24 + length + 8 else { return .torn("length field \(length) but \(data.count) bytes") }
        guard fnv1a(data.prefix(data.count - 8)) == integer(data.count - 8, UInt64.self) else { return .torn("checksum mismatch") }
        return .valid(Stamp(seed: integer(0, UInt64.self), seq: integer(8, UInt64.self)), key: integer(16, UInt32.self))
    }

    /// Files in `data/` that the manifest does not name, read straight from SQLite before reopening.
    static func orphanCount(in path: String) -> Int {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path + "/manifest.sqlite", &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return -1 }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT filename FROM manifest WHERE filename IS NOT NULL", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        var referenced = Set<String>()
        while sqlite3_step(statement) == SQLITE_ROW { referenced.insert(String(cString: sqlite3_column_text(statement, 0))) }
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: path + "/data")) ?? [])
        return files.subtracting(referenced).count
    }

    @Test(.hangLimit)
    func killedWritersNeverLeaveTornValuesOrOrphans() async throws {
        let helper = try #require(BuildProducts.executable("cache-crash-writer"), "build the cache-crash-writer product first")
        let folder = TemporaryDirectory("crash")
        let keyCount: UInt32 = 400
        var committed: [UInt32: Stamp] = [:]
        var totalCommitted = 0
        var orphansSeen = 0
        var generator = SystemRandomNumberGenerator()

        for round in 1...6 {
            let seed = UInt64(round)
            let child = try ChildProcess(helper, ["write", folder.path, "\(seed)", "10000", "\(keyCount)"])
            try await Task.sleep(for: .milliseconds(Int.random(in: 150...1_500, using: &generator)))
            child.kill()
            let output = child.wait()
            #expect(output.terminatedBySignal || output.status == 0, "writer failed: \(output.text.suffix(300)) \(output.standardError)")

            // Replay the log: "W seq key" before a write, "C seq" after its commit.
            var inFlight: (seq: UInt64, key: UInt32)?
            for line in output.text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.first == "W", fields.count == 3, let seq = UInt64(fields[1]), let key = UInt32(fields[2]) {
                    inFlight = (seq, key)
                } else if fields.first == "C", fields.count == 2, let seq = UInt64(fields[1]), let pending = inFlight, pending.seq == seq {
                    committed[pending.key] = Stamp(seed: seed, seq: seq)
                    totalCommitted += 1
                    inFlight = nil
                }
            }

            orphansSeen += max(Self.orphanCount(in: folder.path), 0)
            let cache = try DiskCache(path: folder.path)
            for key in 0..<keyCount {
                let data = try await cache.data(forKey: "key-\(key)")
                let flying = inFlight.flatMap { $0.key == key ? Stamp(seed: seed, seq: $0.seq) : nil }
                guard let data else {
                    #expect(committed[key] == nil, "key \(key) lost its committed value \(committed[key]!)")
                    continue
                }
                switch Self.inspect(data) {
                case .torn(let why):
                    Issue.record("key \(key) holds a torn value: \(why)")
                case .valid(let stamp, let storedKey):
                    #expect(storedKey == key, "key \(key) holds the value of key \(storedKey)")
                    #expect(
                        stamp == committed[key] || stamp == flying,
                        "key \(key) holds \(stamp), expected \(committed[key].map(\.description) ?? "nothing") or \(flying.map(\.description) ?? "-")"
                    )
                    committed[key] = stamp
                }
            }
            #expect(cache.dataFileNames == cache.referencedFileNames, "orphan files survived the reopening")
        }
        #expect(totalCommitted > 1_000, "the writers committed too little to exercise the cache")
        print("crash safety: 6 kills, \(totalCommitted) commits, \(orphansSeen) orphan files found before reopening and swept")
    }
}

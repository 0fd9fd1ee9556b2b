import Foundation
import TestSupport
import Testing
import YYImage

/// `yy bench json|image|cache` as scripts run it: the rows, what each round did, the ratios, the
/// exit codes, and no folder left behind. (Timings are measured, never checked against a goal.)
@Suite struct BenchCommandTests {
    let folder = TemporaryDirectory("clibench")

    func yy(_ arguments: String...) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess.run(binary, arguments)
    }

    func file(_ name: String, _ bytes: Data) throws -> String {
        let path = folder.appending(name)
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The rows of a `--json` run.
    func rows(_ result: ChildProcess.Output) throws -> [[String: Any]] {
        try result.text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// Checks what every row must hold: a positive round time, a rate that is operations over
    /// it, a byte rate that is bytes over it, and a ratio that is its rate over the peer's.
    func expectConsistent(_ rows: [[String: Any]], peer: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let peerRate = try peer.map { name in
            try #require(rows.first { $0["contender"] as? String == name }?["operationsPerSecond"] as? Double)
        }
        for row in rows {
            let seconds = try #require(row["roundSeconds"] as? Double)
            let operations = try #require(row["operations"] as? Int)
            let rate = try #require(row["operationsPerSecond"] as? Double)
            #expect(seconds > 0, sourceLocation: sourceLocation)
            #expect(abs(rate - Double(operations) / seconds) <= rate * 1e-9, sourceLocation: sourceLocation)
            if let bytes = row["bytes"] as? Int {
                let byteRate = try #require(row["megabytesPerSecond"] as? Double)
                #expect(abs(byteRate - Double(bytes) / 1e6 / seconds) <= byteRate * 1e-9, sourceLocation: sourceLocation)
            }
            if let peerRate {
                let ratio = try #require(row["againstPeer"] as? Double)
                #expect(abs(ratio - rate / peerRate) <= ratio * 1e-9, sourceLocation: sourceLocation)
            } else {
                #expect(row["againstPeer"] == nil, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func jsonBenchTimesBothOfOurParsersAndFoundationOnEveryFile() throws {
        let first = Data(#"{"a": [1, 2.5, "x", null, true]}"#.utf8), second = Data("[[], {}, \"é\"]".utf8)
        let result = try yy("bench", "json", try file("a.json", first), try file("b.json", second), "--seconds", "0", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try rows(result)
        #expect(rows.map { $0["contender"] as? String } == ["JSONDocument (YYModel)", "JSONValue (YYModel)", "JSONSerialization (Foundation)"])
        for row in rows {
            #expect(row["benchmark"] as? String == "parse")
            #expect(row["operations"] as? Int == 2)
            #expect(row["bytes"] as? Int == first.count + second.count)
        }
        #expect(rows.last?["againstPeer"] as? Double == 1)
        try expectConsistent(rows, peer: "JSONSerialization (Foundation)")
    }

    @Test func theTableHasARowPerContenderAndSaysWhenTheBuildIsADebugOne() throws {
        let result = try yy("bench", "json", try file("a.json", Data("[1]".utf8)), "--seconds", "0")
        #expect(result.status == 0)
        let lines = result.text.split(separator: "\n")
        #expect(lines.first == "| benchmark | contender | fastest round | operations/s | MB/s | against the peer |")
        #expect(lines.count == 5)
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("| parse | ") && $0.hasSuffix("x |") }, "\(result.text)")
        #if DEBUG
        #expect(result.standardError.contains("debug build"))
        #else
        #expect(result.standardError.isEmpty)
        #endif
    }

    @Test func jsonBenchRefusesInvalidJSONAndBadUsage() throws {
        let bad = try yy("bench", "json", try file("good.json", Data("{}".utf8)), try file("bad.json", Data("[1,]".utf8)), "--seconds", "0")
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("bad.json: invalid JSON at line 1, column 4"), "\(bad.standardError)")
        #expect(bad.standardOutput.isEmpty)
        #expect(try yy("bench", "json", folder.appending("missing.json")).status == 2)
        #expect(try yy("bench", "json").status == 2)
        #expect(try yy("bench", "json", try file("c.json", Data("1".utf8)), "--seconds", "-1").status == 2)
        #expect(try yy("bench", "json", try file("d.json", Data("1".utf8)), "--seconds", "nan").status == 2)
    }

    @Test func imageBenchDecodesEveryFrameOfEveryFileAndHasNoPeer() throws {
        var animation = ImageEncoder(type: .gif)
        for shade in [UInt8(0), 120, 240] {
            var frame = Bitmap(width: 6, height: 4)
            for y in 0..<4 { for x in 0..<6 { frame[x, y] = RGBA(shade, UInt8(x * 40), UInt8(y * 60), 255) } }
            animation.addFrame(frame, duration: 0.1)
        }
        let gif = try animation.encode()
        let png = try ImageEncoder.encode(Bitmap(width: 3, height: 3), as: .png)
        let result = try yy("bench", "image", try file("a.gif", gif), try file("b.png", png), "--seconds", "0", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try rows(result)
        #expect(rows.map { $0["benchmark"] as? String } == ["decode every frame", "decode the first frame"])
        #expect(rows.first?["operations"] as? Int == 4)
        #expect(rows.first?["bytes"] as? Int == gif.count + png.count)
        #expect(rows.last?["operations"] as? Int == 2)
        #expect(rows.last?["bytes"] == nil)
        try expectConsistent(rows, peer: nil)

        let notAnImage = try yy("bench", "image", try file("c.png", Data("not an image".utf8)), "--seconds", "0")
        #expect(notAnImage.status == 1)
        #expect(notAnImage.standardError.contains("c.png: "), "\(notAnImage.standardError)")
        #expect(try yy("bench", "image", folder.appending("missing.png")).status == 2)
    }

    @Test func cacheBenchComparesWithNSCacheAndAFilePerKeyAndRemovesItsFolders() throws {
        let scratch = folder.appending("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let result = try yy("bench", "cache", "--count", "20", "--size", "64", "--folder", scratch, "--seconds", "0", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let rows = try rows(result)
        #expect(
            rows.map { $0["contender"] as? String } == [
                "MemoryCache (YYCache)", "NSCache (Foundation)", "DiskCache (YYCache)", "a file per key (Data.write, atomic)",
            ])
        #expect(rows.allSatisfy { $0["operations"] as? Int == 40 })
        #expect(rows.map { $0["bytes"] as? Int } == [nil, nil, 2 * 20 * 64, 2 * 20 * 64])
        try expectConsistent(Array(rows.prefix(2)), peer: "NSCache (Foundation)")
        try expectConsistent(Array(rows.suffix(2)), peer: "a file per key (Data.write, atomic)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [])

        #expect(try yy("bench", "cache", "--count", "0").status == 2)
        #expect(try yy("bench", "cache", "--count", "1000001").status == 2)
        #expect(try yy("bench", "cache", "--size", "-1").status == 2)
        #expect(try yy("bench", "cache", "--size", "67108865").status == 2)
        let unwritable = try yy("bench", "cache", "--count", "1", "--folder", "/proc/yy-bench", "--seconds", "0")
        #expect(unwritable.status == 3)
        #expect(unwritable.standardError.contains("/proc/yy-bench"), "\(unwritable.standardError)")
    }

    /// The bounds allow a million values of 64 MiB: it wrote until the disk was full.
    @Test func cacheBenchRefusesBeforeItStartsARoundThatWouldNotFitOnTheDisk() throws {
        let scratch = folder.appending("full")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let result = try yy("bench", "cache", "--count", "1000000", "--size", "67108864", "--folder", scratch + "/new", "--seconds", "0")
        #expect(result.status == 3)
        #expect(
            result.standardError.contains(
                "1000000 values of 67108864 bytes need about 75497473048576 bytes of disk; the file system of '\(scratch)/new' has "),
            "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [])
    }
}

import Foundation
import TestSupport
import TestTraits
import Testing

/// `yy cache …` as users and scripts run it: exact bytes, exit codes, machine-readable stats.
@Suite(.hangLimit) struct CacheCommandTests {
    let folder = TemporaryDirectory("cli")
    var path: String { folder.appending("cache") }

    func yy(_ arguments: String..., input: Data? = nil) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess.run(binary, arguments, input: input)
    }

    @Test func setThenGetReturnsTheExactBytes() throws {
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }) + Data([0, 0, 255, 10])
        let file = folder.appending("value.bin")
        try bytes.write(to: URL(fileURLWithPath: file))
        #expect(try yy("cache", "set", "--path", path, "binary/key", file).status == 0)
        let got = try yy("cache", "get", "--path", path, "binary/key")
        #expect(got.status == 0)
        #expect(got.standardOutput == bytes)
    }

    @Test func setReadsStandardInputWhenNoFileIsGiven() throws {
        #expect(try yy("cache", "set", "--path", path, "k", input: Data("from stdin\n".utf8)).status == 0)
        #expect(try yy("cache", "get", "--path", path, "k").standardOutput == Data("from stdin\n".utf8))
    }

    @Test func setOfAValuePastMaxSizeIsRefusedAndReadingStopsThere() throws {
        #expect(try yy("cache", "set", "--path", path, "five", "-", "--max-size", "5", input: Data("12345".utf8)).status == 0)
        #expect(try yy("cache", "get", "--path", path, "five").standardOutput == Data("12345".utf8))
        let file = folder.appending("six.bin")
        try Data("123456".utf8).write(to: URL(fileURLWithPath: file))
        let over = try yy("cache", "set", "--path", path, "six", file, "--max-size", "5")
        #expect(over.status == 3)
        #expect(over.standardError.contains("larger than --max-size (5 bytes)"), "\(over.standardError)")
        #expect(try yy("cache", "get", "--path", path, "six").status == 1)
        #expect(try yy("cache", "set", "--path", path, "k", "--max-size", "-1", input: Data()).status == 2)
        // Standard input that never ends (its pipe stays open): reading it to the end would fill
        // memory; yy stops just past the limit and answers.
        let binary = try #require(BuildProducts.executable("yy"))
        let child = try ChildProcess(binary, ["cache", "set", "--path", path, "endless", "--max-size", "1000"])
        // 32 KB fits in the pipe's buffer, so the write returns whether or not yy reads it all.
        child.write(Data(repeating: 7, count: 32 * 1024))
        let endless = child.wait(closingInput: false)
        #expect(endless.status == 3)
        #expect(endless.standardError.contains("standard input is larger than --max-size (1000 bytes)"), "\(endless.standardError)")
        #expect(try yy("cache", "get", "--path", path, "endless").status == 1)
    }

    @Test func standardInputThatCannotBeReadIsAFailureWithItsReason() throws {
        // Foundation's readDataToEndOfFile() trapped on the read error of a folder as input.
        let binary = try #require(BuildProducts.executable("yy"))
        let result = try ChildProcess.run("/bin/sh", ["-c", #"exec "$0" cache set --path "$1" k < "$2""#, binary, path, folder.path])
        #expect(result.status == 3)
        #expect(result.standardError.contains("cannot read standard input: Is a directory"), "\(result.standardError)")
    }

    @Test func anyPositiveTimeToLiveIsTakenAndAHugeOneMeansForever() throws {
        for ttl in ["0.5", "3600", "1e300", "inf"] {
            let result = try yy("cache", "set", "--path", path, "ttl " + ttl, "--ttl", ttl, input: Data(ttl.utf8))
            #expect(result.status == 0, "--ttl \(ttl): \(result.standardError)")
        }
        for ttl in ["3600", "1e300", "inf"] {
            #expect(try yy("cache", "get", "--path", path, "ttl " + ttl).standardOutput == Data(ttl.utf8))
        }
        for ttl in ["0", "nan", "-1"] {
            #expect(try yy("cache", "set", "--path", path, "k", "--ttl", ttl, input: Data()).status == 2, "--ttl \(ttl)")
        }
    }

    @Test func getOfAMissingKeyExitsOneWithAMessage() throws {
        let result = try yy("cache", "get", "--path", path, "absent")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("absent"))
    }

    @Test func removeDeletesValues() throws {
        _ = try yy("cache", "set", "--path", path, "a", input: Data("1".utf8))
        _ = try yy("cache", "set", "--path", path, "b", input: Data("2".utf8))
        #expect(try yy("cache", "remove", "--path", path, "a", "b", "never").status == 0)
        #expect(try yy("cache", "get", "--path", path, "a").status == 1)
    }

    @Test func statsPrintsCountsAndCountersAsJSON() throws {
        _ = try yy("cache", "set", "--path", path, "a", input: Data("12345".utf8))
        _ = try yy("cache", "get", "--path", path, "a")
        _ = try yy("cache", "get", "--path", path, "missing")
        let result = try yy("cache", "stats", "--path", path, "--json")
        #expect(result.status == 0)
        let stats = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]
        #expect(stats?["count"] as? Int == 1)
        #expect(stats?["cost"] as? Int == 5)
        #expect(stats?["hits"] as? Int == 1)
        #expect(stats?["misses"] as? Int == 1)
        #expect(stats?["evictions"] as? Int == 0)
        let text = try yy("cache", "stats", "--path", path)
        #expect(text.text.contains("count: 1"))
    }

    @Test func trimAndClear() throws {
        for i in 0..<5 { _ = try yy("cache", "set", "--path", path, "k\(i)", input: Data(repeating: 1, count: 100)) }
        let trimmed = try yy("cache", "trim", "--path", path, "--count", "2")
        #expect(trimmed.status == 0)
        #expect(trimmed.text.contains("count: 2"))
        #expect(try yy("cache", "get", "--path", path, "k4").status == 0)
        #expect(try yy("cache", "get", "--path", path, "k0").status == 1)
        // An age beyond any clock keeps everything (it once trapped converting to milliseconds).
        #expect(try yy("cache", "trim", "--path", path, "--age", "1e300").status == 0)
        #expect(try yy("cache", "get", "--path", path, "k4").status == 0)
        #expect(try yy("cache", "clear", "--path", path).status == 0)
        #expect(try yy("cache", "get", "--path", path, "k4").status == 1)
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try yy("cache", "get").status == 2)
        #expect(try yy("cache", "frobnicate", "--path", path).status == 2)
        #expect(try yy("cache", "trim", "--path", path, "--count", "-1").status == 2)
    }

    @Test func failuresGoToStandardErrorAndExitThree() throws {
        let file = folder.appending("plainfile")
        try Data().write(to: URL(fileURLWithPath: file))
        let result = try yy("cache", "get", "--path", file + "/cache", "k")
        #expect(result.status == 3)
        #expect(result.standardError.contains("cannot open the cache"))
        let unreadable = try yy("cache", "set", "--path", path, "k", folder.appending("no-such-file"))
        #expect(unreadable.status == 3)
        #expect(unreadable.standardError.contains("No such file or directory"), "\(unreadable.standardError)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func outputThatCannotBeWrittenIsAFailureNotACrashNorASuccess() throws {
        // /dev/full refuses every write as a full disk does. FileHandle.write(_:) trapped on it
        // (get), and text from print was dropped with exit 0 (stats).
        _ = try yy("cache", "set", "--path", path, "k", input: Data(repeating: 1, count: 100_000))
        let binary = try #require(BuildProducts.executable("yy"))
        for command in ["get --path \"$1\" k", "stats --path \"$1\"", "stats --json --path \"$1\""] {
            let result = try ChildProcess.run("/bin/sh", ["-c", #"exec "$0" cache "# + command + " > /dev/full", binary, path])
            #expect(result.status == 3, "\(command): \(result.standardError)")
            #expect(!result.terminatedBySignal)
            #expect(result.standardError == "yy: cannot write standard output: No space left on device\n", "\(command)")
        }
    }

    @Test func helpWorksEverywhere() throws {
        for command in [["--help"], ["cache", "--help"], ["cache", "get", "--help"], ["cache", "stats", "--help"]] {
            let result = try ChildProcess.run(try #require(BuildProducts.executable("yy")), command)
            #expect(result.status == 0)
            #expect(result.text.contains("USAGE"))
        }
    }
}

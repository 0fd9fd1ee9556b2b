import Foundation
import TestSupport
import TestTraits
import Testing

/// `yy json validate|format` as scripts run them: exit codes, positions, exact output.
@Suite(.hangLimit) struct JSONCommandTests {
    let folder = TemporaryDirectory("clijson")

    func yy(_ arguments: String..., input: Data? = nil) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess.run(binary, arguments, input: input)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appending(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func validateExitsZeroForValidJSON() throws {
        let result = try yy("json", "validate", try file("ok.json", #"{"a": [1, 2.5, "x", null]}"#))
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
    }

    @Test func validateExitsOneWithThePosition() throws {
        let result = try yy("json", "validate", try file("bad.json", "{\n  \"a\": [1,]\n}"))
        #expect(result.status == 1)
        #expect(result.standardError.contains("line 2, column 11 (byte 12): unexpected character ']'"), "\(result.standardError)")
    }

    @Test func validateExitsTwoForUsageErrors() throws {
        #expect(try yy("json", "validate").status == 2)
        #expect(try yy("json", "validate", folder.appending("missing.json")).status == 2)
        #expect(try yy("json", "validate", "a", "b").status == 2)
    }

    @Test func validateReadsStandardInput() throws {
        #expect(try yy("json", "validate", "-", input: Data("[1,2]".utf8)).status == 0)
        #expect(try yy("json", "validate", "-", input: Data("[1,2".utf8)).status == 1)
    }

    @Test func inputPastMaxSizeIsRefusedAndReadingStopsThere() throws {
        let path = try file("ten.json", "[1,2,3,45]")
        #expect(try yy("json", "validate", path, "--max-size", "10").status == 0)
        let over = try yy("json", "validate", path, "--max-size", "9")
        #expect(over.status == 1)
        #expect(over.standardError.contains("input larger than 9 bytes"), "\(over.standardError)")
        #expect(try yy("json", "format", path, "--max-size", "9").status == 1)
        #expect(try yy("json", "validate", path, "--max-size", "-1").status == 2)
        // An input that never ends (its pipe stays open): yy stops reading past the limit and
        // answers, where reading to the end would wait for ever.
        let binary = try #require(BuildProducts.executable("yy"))
        let child = try ChildProcess(binary, ["json", "validate", "-", "--max-size", "1000"])
        // 32 KB fits in the pipe's buffer, so the write returns at once, whether or not yy reads
        // it all (and no write can meet a closed pipe after yy exits).
        child.write(Data(repeating: UInt8(ascii: "1"), count: 32 * 1024))
        let endless = child.wait(closingInput: false)
        #expect(endless.status == 1)
        #expect(endless.standardError.contains("input larger than 1000 bytes"), "\(endless.standardError)")
    }

    @Test func formatWritesCompactOrPrettyKeepingOrder() throws {
        let path = try file("in.json", #"{ "b" : 1, "a" : [ 1.50, "é\n" ] }"#)
        #expect(try yy("json", "format", path).text == #"{"b":1,"a":[1.50,"é\n"]}"# + "\n")
        #expect(
            try yy("json", "format", path, "--pretty").text == """
                {
                  "b": 1,
                  "a": [
                    1.50,
                    "é\\n"
                  ]
                }

                """)
        #expect(try yy("json", "format", try file("bad.json", "[")).status == 1)
    }

    @Test func formatKeepsEveryDigitOfANumber() throws {
        let text = #"[18446744073709551616,-0.000000000000000000000000000001e-400,1E2,12345678901234567890.123456789]"#
        let path = try file("numbers.json", text)
        #expect(try yy("json", "format", path).text == text + "\n")
    }
}

extension JSONCommandTests {
    @Test func modelPrintsAnnotatedSwift() throws {
        let path = try file("user.json", #"{"user_id": 1, "name": "a", "tags": ["x"]}"#)
        let result = try yy("json", "model", path, "--name", "User")
        #expect(result.status == 0)
        #expect(
            result.text.contains("@Model\nstruct User {\n    var name: String\n    var tags: [String]\n    @Key(\"user_id\") var userId: Int\n}"),
            "\(result.text)")
        #expect(try yy("json", "model", try file("n.json", "42"), "--name", "N").status == 1)
        #expect(try yy("json", "model", path, "--name", "1bad").status == 2)
        #expect(try yy("json", "model", path).status == 2)
    }
}

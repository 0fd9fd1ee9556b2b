import CYYJSONScan
import TestSupport
import Testing

@testable import YYModelCore

/// The parser's 32-bytes-a-step string scan (`yy_json_scan_string`, AVX2) against its portable
/// twin and against the standard library's UTF-8 validation. Where the scan does not run (no AVX2,
/// not x86-64), the parity tests compare the portable path with itself and the direct tests skip.
@Suite struct StringScanTests {
    /// The tape's words, or the error, from parsing `bytes` one way or the other.
    func outcome(_ bytes: [UInt8], vectorScan: Bool) -> Result<[UInt64], JSONError> {
        bytes.withUnsafeBufferPointer { input in
            do throws(JSONError) {
                let tape = try JSONParser.parse(input, options: JSONParsingOptions(), vectorScan: vectorScan)
                return .success(tape.withWords { Array($0) })
            } catch {
                return .failure(error)
            }
        }
    }

    /// What `yy_json_scan_string` must answer for `text`: the first `"`, `\` or control byte's
    /// offset if the bytes before it are valid UTF-8, -1 otherwise or if there is none.
    func expectedScan(_ text: [UInt8]) -> Int {
        guard let stop = text.firstIndex(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) else { return -1 }
        return String(validating: text[..<stop], as: UTF8.self) == nil ? -1 : stop
    }

    func scan(_ text: [UInt8]) -> Int {
        text.withUnsafeBufferPointer { yy_json_scan_string($0.baseAddress!, $0.count) }
    }

    /// Characters of one to four bytes, escapes included, as they appear in JSON string text.
    static let pieces: [[UInt8]] = ["a", " ", "é", "ж", "€", "日本", "ｶ", "😀", "\\n", "\\\"", "\\u00e9", "\\ud83d\\ude00", "/"]
        .map { Array($0.utf8) }

    @Test func validStringsParseTheSameBothWays() {
        var generator = SplitMix64(seed: 46)
        for _ in 0..<3_000 {
            var text: [UInt8] = Array(#"["#.utf8)
            for _ in 0..<Int(generator.next() % 4 + 1) {
                text += [0x22]
                for _ in 0..<Int(generator.next() % 90) {
                    text += Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))]
                }
                text += Array(#"", "#.utf8)
            }
            text += Array("0]".utf8)
            let vector = outcome(text, vectorScan: true)
            #expect(vector == outcome(text, vectorScan: false), "\(String(decoding: text, as: UTF8.self))")
            if case .failure(let error) = vector { Issue.record("valid text rejected: \(error)") }
        }
    }

    /// Each kind of bad text put at every offset from 0 to 80 of a string of multi-byte text, so
    /// that it meets both 128-bit lanes and the 32-byte steps at every alignment: both ways throw
    /// the same error at the same offset.
    @Test(
        arguments: [
            [0x80], [0xBF, 0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xE3, 0x81], [0xE3, 0x81, 0x41], [0xF0, 0x80, 0x80, 0x80],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98],
            [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0x01], [0x1F], [0x5C, 0x78], [0x5C, 0x75, 0x44, 0x38, 0x30, 0x30],
        ] as [[UInt8]])
    func badTextFailsTheSameWayAtEveryOffset(bad: [UInt8]) {
        let filler = Array("日本語のテキストと ascii mixed 文字列です。".utf8)
        for offset in 0...80 {
            var string: [UInt8] = []
            while string.count < offset { string += filler }
            // Cut on a character boundary at or before `offset`, then the bad bytes, then more text.
            var cut = offset
            while cut > 0, cut < string.count, string[cut] & 0xC0 == 0x80 { cut -= 1 }
            let text = [0x5B, 0x22] + string[..<cut] + bad + filler + [0x22, 0x5D]
            let vector = outcome(text, vectorScan: true)
            #expect(vector == outcome(text, vectorScan: false), "bad \(bad) at \(cut)")
            if case .success = vector { Issue.record("bad \(bad) at \(cut) accepted") }
        }
    }

    /// Strings that end the input without a closing quote, at every length around the 32-byte
    /// steps, with and without a character cut short at the end.
    @Test func unfinishedStringsFailTheSameWay() {
        let character: [UInt8] = Array("日".utf8)
        for count in 0...100 {
            for ending: [UInt8] in [[], [0xE6], [0xE6, 0x97]] {
                var text: [UInt8] = [0x22]
                while text.count < count { text += character }
                text += ending
                let vector = outcome(text, vectorScan: true)
                #expect(vector == outcome(text, vectorScan: false), "length \(text.count)")
                if case .success = vector { Issue.record("unfinished string of \(text.count) bytes accepted") }
            }
        }
    }

    /// Every two-byte pair, and every three- and four-byte sequence over the lead bytes that open
    /// them with telling later bytes, placed across the lanes' border (offset 14) and across a
    /// 32-byte step (offset 30): the scan answers as the standard library's validation does.
    @Test(.enabled(if: yy_json_scan_available() != 0, "no AVX2 here: yy_json_scan_string does not run"))
    func scanAgreesWithTheStandardLibrary() {
        let telling: [UInt8] = [0x00, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF4, 0xFF]
        var sequences: [[UInt8]] = []
        for first in 0x80...0xFF {
            for second in 0...0xFF { sequences.append([UInt8(first), UInt8(second)]) }
        }
        for first in 0xE0...0xFF {
            for second in 0...0xFF {
                for third in telling { sequences.append([UInt8(first), UInt8(second), third]) }
            }
        }
        for first in 0xF0...0xF7 {
            for second in telling {
                for third in telling {
                    for fourth in telling { sequences.append([UInt8(first), second, third, fourth]) }
                }
            }
        }
        var mismatches = 0
        for offset in [0, 14, 30] {
            let before = Array(repeating: UInt8(ascii: "a"), count: offset)
            for sequence in sequences {
                let text = before + sequence + Array("z\"".utf8)
                if scan(text) != expectedScan(text) {
                    mismatches += 1
                    if mismatches <= 10 { Issue.record("\(sequence) at \(offset): \(scan(text)), expected \(expectedScan(text))") }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(.enabled(if: yy_json_scan_available() != 0, "no AVX2 here: yy_json_scan_string does not run"))
    func scanFindsTheEndOfLongText() {
        let text = Array(String(repeating: "テキスト text ", count: 40).utf8)
        for end in [0, 1, 31, 32, 33, 63, 64, 100, text.count - 1] {
            var copy = Array(text[..<end])
            while let last = copy.last, last & 0xC0 == 0x80 || last >= 0xC0 { copy.removeLast() }
            for stop: UInt8 in [0x22, 0x5C, 0x0A, 0x00] {
                #expect(scan(copy + [stop] + text) == copy.count, "stop \(stop) after \(copy.count) bytes")
            }
        }
        #expect(scan(text) == -1, "no stop: the caller decides")
    }
}

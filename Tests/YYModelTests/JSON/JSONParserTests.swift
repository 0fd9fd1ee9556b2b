import Foundation
import Testing

@testable import YYModelCore

@Suite struct JSONParserTests {
    func parse(_ text: String, options: JSONParsingOptions = JSONParsingOptions()) throws(JSONError) -> JSONValue {
        try JSONValue(parsing: text, options: options)
    }

    func error(_ text: String, options: JSONParsingOptions = JSONParsingOptions()) -> JSONError? {
        do {
            _ = try parse(text, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" { "a": [1, -2, 3.5, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {} , "c": [] } "#)
        #expect(value == ["a": [1, -2, 3.5, true, false, nil, "x\né😀"], "b": [:], "c": []])
    }

    @Test func integersStayExact() throws {
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("-9223372036854775808") == .int(.min))
        #expect(try parse("18446744073709551615") == .uint(.max))
        #expect(try parse("18446744073709551616") == .double(18446744073709551616))
        #expect(try parse("-0") == .int(0))
        #expect(try parse("-0.0") == .double(-0.0))
    }

    @Test func doublesAreCorrectlyRounded() throws {
        for text in [
            "0.1", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "0.30000000000000004",
            "123456789012345678901234567890", "9007199254740993", "1e23", "8.8", "3.141592653589793238462643383279",
        ] {
            let expected = Double(text)!
            let parsed = try parse(text)
            let bits: UInt64? =
                switch parsed {
                case .double(let value): value.bitPattern
                case .int(let value): Double(value).bitPattern
                default: nil
                }
            #expect(bits == expected.bitPattern, "\(text)")
        }
    }

    @Test func reportsWhereAndWhy() throws {
        let failure = try #require(error("{\n  \"a\": tru\n}"))
        // Points at the byte that breaks `true`: the newline after "tru".
        #expect(failure.line == 2)
        #expect(failure.column == 11)
        #expect(failure.offset == 12)
        #expect(failure.reason == .unexpectedByte(UInt8(ascii: "\n")))
        #expect(failure.description == "line 2, column 11 (byte 12): unexpected byte 0xA")
        #expect(error("[1,]")?.reason == .unexpectedByte(UInt8(ascii: "]")))
        #expect(error("{\"a\" 1}")?.reason == .expectedColon)
        #expect(error("{1:1}")?.reason == .expectedKey)
        #expect(error("[1 2]")?.reason == .expectedCommaOrEnd)
        #expect(error("[1] x")?.reason == .trailingCharacters)
        #expect(error("01")?.reason == .invalidNumber)
        #expect(error("1e400")?.reason == .numberOutOfRange)
        #expect(error("\"\\x\"")?.reason == .invalidEscape)
        #expect(error("\"\\u12\"")?.reason == .invalidUnicodeEscape)
        #expect(error("\"\\ud800\"")?.reason == .loneSurrogate)
        #expect(error("\"\\udc00\\ud800\"")?.reason == .loneSurrogate)
        #expect(error("\"a\tb\"")?.reason == .controlCharacterInString)
        #expect(error("")?.reason == .unexpectedEnd)
    }

    @Test func rejectsInvalidUTF8() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xC3],
        ] {
            #expect(throws: JSONError.self, "\(bytes)") { try JSONDocument(parsing: bytes) }
        }
        #expect((try? JSONDocument(parsing: [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])) != nil)
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(error(deep)?.reason == .tooDeep(limit: 512))
        let nested = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try parse(nested) }
        #expect(error(nested, options: JSONParsingOptions(maximumDepth: 10))?.reason == .tooDeep(limit: 10))
        // With a generous limit, depth costs heap (the parser's own stack), not the call stack.
        let veryDeep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: Never.self) { try JSONDocument(parsing: veryDeep, options: JSONParsingOptions(maximumDepth: 200_000)) }
    }

    @Test func inputSizeLimitIsEnforcedBeforeParsing() {
        let options = JSONParsingOptions(maximumInputSize: 10)
        #expect(error("[1,2,3,4,5,6]", options: options)?.reason == .tooLarge(limit: 10))
        #expect(error("[1,2,3]", options: options) == nil)
    }

    @Test func acceptsALeadingByteOrderMark() throws {
        #expect(try JSONDocument(parsing: [0xEF, 0xBB, 0xBF] + Array("[]".utf8)).value == [])
    }

    @Test func largeNumbersAndLongStrings() throws {
        let digits = String(repeating: "9", count: 10_000)
        #expect(error(digits)?.reason == .numberOutOfRange)
        #expect(try parse("0." + digits) == .double(1.0))
        #expect(try parse("1e-99999999999") == .double(0))
        let long = String(repeating: "é", count: 1_000_000)
        #expect(try parse("\"" + long + "\"") == .string(long))
    }

    // The parser scans plain string text and indentation eight bytes at a time; these tests put
    // each kind of byte at every offset within and across those eight-byte words.

    /// The reason and offset of the error parsing `bytes`, or nil when they parse.
    func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONDocument(parsing: bytes)
            return nil
        } catch {
            return "\(error.reason) at \(error.offset)"
        }
    }

    func failure(_ reason: JSONError.Reason, at offset: Int) -> String { "\(reason) at \(offset)" }

    /// Between ASCII text, and between multi-byte characters (which are validated in runs that
    /// take single ASCII bytes along).
    @Test(arguments: ["a", "é", "日"], ["xyz#!", "日本"])
    func everyByteIsClassifiedAtEveryOffsetInAString(filler: String, tail: String) throws {
        for prefix in 0..<20 {
            let head = Array("[\"".utf8) + Array(String(repeating: filler, count: prefix).utf8)
            let at = head.count  // the offset of the byte under test
            for byte in UInt8(0)..<0x80 {
                let text = head + [byte] + Array((tail + "\"]").utf8)
                switch byte {
                case UInt8(ascii: "\""):
                    #expect(failure(text) == failure(.expectedCommaOrEnd, at: at + 1), "\(prefix)")
                case UInt8(ascii: "\\"):
                    #expect(failure(text) == failure(.invalidEscape, at: at), "\(prefix)")
                case ..<0x20:
                    #expect(failure(text) == failure(.controlCharacterInString, at: at), "\(prefix) \(byte)")
                default:
                    let expected = String(repeating: filler, count: prefix) + String(UnicodeScalar(byte)) + tail
                    #expect(try JSONDocument(parsing: text).value == [.string(expected)], "\(prefix) \(byte)")
                }
            }
        }
    }

    @Test func multiByteUTF8IsCheckedAtEveryOffset() throws {
        let valid: [[UInt8]] = [[0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF]]
        // Each with the offset, within the sequence, of the byte the error names.
        let invalid: [([UInt8], Int)] = [
            ([0x80], 0), ([0xC1, 0xBF], 0), ([0xC3, 0x41], 0), ([0xE0, 0x9F, 0xBF], 0), ([0xED, 0xA0, 0x80], 0),
            ([0xE6, 0x97, 0x41], 2), ([0xF0, 0x8F, 0xBF, 0xBF], 0), ([0xF4, 0x90, 0x80, 0x80], 0),
            ([0xF0, 0x9F, 0x98, 0x41], 3), ([0xF5, 0x80, 0x80, 0x80], 0), ([0xFF], 0),
        ]
        for prefix in 0..<12 {
            let head = Array("\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: prefix)
            for sequence in valid {
                let text = head + sequence + sequence + Array("b\"".utf8)
                let expected = String(repeating: "a", count: prefix) + String(decoding: sequence + sequence, as: UTF8.self) + "b"
                #expect(try JSONDocument(parsing: text).value == .string(expected), "\(prefix) \(sequence)")
            }
            for (sequence, blamed) in invalid {
                let text = head + [0xC3, 0xA9] + sequence + Array("bcdefgh\"".utf8)
                #expect(failure(text) == failure(.invalidUTF8, at: head.count + 2 + blamed), "\(prefix) \(sequence)")
            }
        }
    }

    @Test func indentationOfEveryLengthIsSkipped() throws {
        for length in 0..<40 {
            let gap = "\n" + String(repeating: " ", count: length)
            #expect(try parse("{" + gap + "\"a\":" + gap + "[1," + gap + "true" + gap + "]" + gap + "}") == ["a": [1, true]], "\(length)")
            // A byte that is not whitespace right after the spaces is still seen.
            #expect(failure(Array(("[1," + gap + "!]").utf8)) == failure(.unexpectedByte(UInt8(ascii: "!")), at: 4 + length), "\(length)")
        }
    }

    @Test func literalsAreCheckedByteByByteWhenCut() {
        for literal in ["true", "false", "null"] {
            for cut in 1..<literal.count {
                let text = "[" + literal.prefix(cut)
                #expect(error(text)?.reason == .unexpectedEnd, "\(text)")
                #expect(failure(Array((text + "x]").utf8)) == failure(.unexpectedByte(UInt8(ascii: "x")), at: 1 + cut), "\(text)")
            }
        }
    }

    @Test func theTapeGrowsPastItsFirstGuess() throws {
        // Two words per element from two bytes each: several times the first estimate.
        let count = 200_000
        let text = "[" + Array(repeating: "7", count: count).joined(separator: ",") + "]"
        let document = try JSONDocument(parsing: text)
        #expect(document.tape.count == 2 * count + 2)
        guard case .array(let elements) = document.value else { Issue.record("not an array"); return }
        #expect(elements.count == count)
        #expect(elements.allSatisfy { $0 == 7 })
    }

    @Test func everyTapeTagReadsBackFromItsWord() {
        // `tag(at:)` turns the top byte into a `Tag` by its raw value.
        for tag in JSONTape.Tag.allCases {
            let read = [JSONTape.word(tag, 12345), 0].withUnsafeBufferPointer {
                TapeView(words: $0, input: UnsafeBufferPointer(start: nil, count: 0)).tag(at: 0)
            }
            #expect(read == tag)
        }
    }
}

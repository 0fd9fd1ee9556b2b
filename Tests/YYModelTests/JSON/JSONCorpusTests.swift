import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYModelCore

@Suite(.needsSharedTestData)
struct JSONCorpusTests {
    static let corpus = TestData.files(in: "json/corpus").filter { $0.pathExtension == "json" }

    @Test func everyCorpusFileRoundTrips() throws {
        #expect(Self.corpus.count >= 13)
        for file in Self.corpus {
            let value = try JSONDocument(parsing: Data(contentsOf: file)).value
            for writer in [JSONWriter(), JSONWriter(pretty: true, sortedKeys: true)] {
                let again = try JSONDocument(parsing: try writer.bytes(for: value)).value
                #expect(again == value, "\(file.lastPathComponent)")
            }
        }
    }

    @Test func formattingKeepsMemberOrderAndRoundTrips() throws {
        for file in Self.corpus {
            let document = try JSONDocument(parsing: Data(contentsOf: file))
            let compact = document.formatted(pretty: false)
            let pretty = document.formatted(pretty: true)
            #expect(try JSONDocument(parsing: compact).value == document.value, "\(file.lastPathComponent)")
            #expect(try JSONDocument(parsing: pretty).formatted(pretty: false) == compact, "\(file.lastPathComponent)")
        }
    }

    /// Every number in canada.json parses to the correctly rounded double (the standard library's
    /// reading of the same text) and is written back to text that reads as the same bits.
    @Test func canadaDoublesAreBitExact() throws {
        let data = try Data(contentsOf: TestData.url("json/corpus/canada.json"))
        let document = try JSONDocument(parsing: data)
        let text = String(decoding: data, as: UTF8.self)
        let numberPattern = /-?\d+(\.\d+)?([eE][+-]?\d+)?/
        let expected = text.matches(of: numberPattern).map { Double(String($0.output.0))! }
        var parsed: [Double] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .double(let number): parsed.append(number)
            case .int(let number): parsed.append(Double(number))
            case .array(let elements): elements.forEach(collect)
            case .object(let members): members.keys.sorted().forEach { collect(members[$0]!) }
            default: break
            }
        }
        // canada.json's numbers all sit in arrays (coordinates), so document order is kept.
        var index = 0
        let root = document.value(at: &index)
        collect(root["features"]!)
        #expect(parsed.count > 100_000)
        #expect(parsed.map(\.bitPattern) == Array(expected.suffix(parsed.count)).map(\.bitPattern))
        let rewritten = try JSONDocument(parsing: JSONWriter().bytes(for: root)).value
        #expect(rewritten == root)
    }

    /// `formatted` copies numbers as written: canada.json's numbers (its strings hold no digits)
    /// come out digit for digit, trailing zeros and all.
    @Test func formattingCopiesEveryNumberDigitForDigit() throws {
        let data = try Data(contentsOf: TestData.url("json/corpus/canada.json"))
        let formatted = try JSONDocument(parsing: data).formatted(pretty: false)
        let numberPattern = /-?\d+(\.\d+)?([eE][+-]?\d+)?/
        func numbers(_ bytes: some Sequence<UInt8>) -> [Substring] {
            String(decoding: Array(bytes), as: UTF8.self).matches(of: numberPattern).map(\.output.0)
        }
        let written = numbers(data)
        #expect(written.count > 100_000)
        #expect(numbers(formatted) == written)
    }

    /// twitter_simdjson.json keeps exact 64-bit ids; each `id` must equal its `id_str`.
    @Test func twitterIdsAreExact64BitIntegers() throws {
        let value = try JSONDocument(parsing: Data(contentsOf: TestData.url("json/corpus/twitter_simdjson.json"))).value
        var checked = 0
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if let idText = members["id_str"], case .string(let digits) = idText, let id = members["id"] {
                    switch id {
                    case .int(let number): #expect(String(number) == digits)
                    case .uint(let number): #expect(String(number) == digits)
                    default: Issue.record("id \(digits) parsed as \(id)")
                    }
                    checked += 1
                }
                members.values.forEach(visit)
            case .array(let elements): elements.forEach(visit)
            default: break
            }
        }
        visit(value)
        #expect(checked > 100)
        #expect(value["statuses"]?[0]?["id"] == .int(505_874_924_095_815_681))
    }

    @Test func escapedAndUnescapedTwitterAgree() throws {
        let plain = try JSONDocument(parsing: Data(contentsOf: TestData.url("json/corpus/twitter.json"))).value
        let escaped = try JSONDocument(parsing: Data(contentsOf: TestData.url("json/corpus/twitterescaped.json"))).value
        #expect(plain == escaped)
    }
}

import Testing

@testable import YYModelCore

@Suite struct JSONWriterTests {
    @Test func writesCompactAndPretty() throws {
        let value: JSONValue = ["b": [1, 2.5, "x"], "a": nil, "c": [:], "d": []]
        #expect(try JSONWriter(sortedKeys: true).string(for: value) == #"{"a":null,"b":[1,2.5,"x"],"c":{},"d":[]}"#)
        #expect(
            try JSONWriter(pretty: true, sortedKeys: true).string(for: value) == """
                {
                  "a": null,
                  "b": [
                    1,
                    2.5,
                    "x"
                  ],
                  "c": {},
                  "d": []
                }
                """)
    }

    @Test func escapesWhatJSONRequires() throws {
        let text = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} é 😀 /"
        let written = try JSONWriter().string(for: .string(text))
        #expect(written == #""quote \" backslash \\ newline \n tab \t nul \u0000 bell \u0007 é 😀 /""#)
        #expect(try JSONValue(parsing: written) == .string(text))
    }

    @Test func doublesUseTheShortestRoundTripForm() throws {
        #expect(try JSONWriter().string(for: [0.1, 8.8, 1.0, 1e-7, 1e21, -0.0, 123456.789]) == "[0.1,8.8,1.0,1e-07,1e+21,-0.0,123456.789]")
        for number in [0.1, 1.0 / 3, .pi, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 2.2250738585072014e-308] {
            let text = try JSONWriter().string(for: .double(number))
            #expect(try JSONValue(parsing: text) == .double(number), "\(text)")
        }
    }

    @Test func rejectsNonFiniteNumbers() {
        #expect(throws: JSONWriterError.nonFiniteNumber(.infinity)) { try JSONWriter().string(for: .double(.infinity)) }
        #expect(JSONValue.array([.double(.nan)]).jsonString() == "[null]")
    }

    @Test func integersOfEveryWidth() throws {
        #expect(
            try JSONWriter().string(for: [.int(.min), .int(.max), .uint(.max)]) == "[-9223372036854775808,9223372036854775807,18446744073709551615]")
    }
}

@Suite struct DocumentFormattingTests {
    @Test(arguments: [
        "0", "-0", "-0.0", "1E2", "1e+2", "2.50", "-9223372036854775808", "9223372036854775808",
        "18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
        "0.1000000000000000000000000001", "1.7976931348623157e308", "-1e-400", "4.9e-324",
    ])
    func numbersAreCopiedAsWritten(number: String) throws {
        for text in [number, "[\(number)]", "{\"k\":\(number)}", "[ \(number) , \(number)\n]"] {
            let compact = try JSONDocument(parsing: text).formatted(pretty: false)
            let expected = text.hasPrefix("[ ") ? "[\(number),\(number)]" : text
            #expect(String(decoding: compact, as: UTF8.self) == expected)
        }
    }

    @Test func stringsAreWrittenWithTheFewestEscapes() throws {
        let formatted = try JSONDocument(parsing: #"["\u0041\/", "\ud83d\ude00", "tab\t"]"#).formatted(pretty: false)
        #expect(String(decoding: formatted, as: UTF8.self) == #"["A/","😀","tab\t"]"#)
    }
}

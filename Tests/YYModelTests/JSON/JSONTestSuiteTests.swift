import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYModelCore

/// nst/JSONTestSuite: every `y_` file accepted, every `n_` file rejected, no crash on `i_`.
@Suite(.needsSharedTestData)
struct JSONTestSuiteTests {
    static let cases = TestData.files(in: "json/jsontestsuite/test_parsing")

    @Test func acceptsEveryYesCase() throws {
        let yes = Self.cases.filter { $0.lastPathComponent.hasPrefix("y_") }
        #expect(yes.count == 95)
        for file in yes {
            let data = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try JSONDocument(parsing: data) }
        }
    }

    @Test func rejectsEveryNoCase() throws {
        let no = Self.cases.filter { $0.lastPathComponent.hasPrefix("n_") }
        #expect(no.count == 188)
        for file in no {
            let data = try Data(contentsOf: file)
            #expect(throws: JSONError.self, "\(file.lastPathComponent)") { try JSONDocument(parsing: data) }
        }
    }

    /// `i_` cases may go either way; these are the answers this parser gives, pinned so a change
    /// is noticed. Rejected: lone surrogates, invalid UTF-8, UTF-16 input, numbers beyond Double.
    @Test func answersImplementationDefinedCasesWithoutCrashing() throws {
        let accepted: Set<String> = [
            "i_number_double_huge_neg_exp.json", "i_number_real_underflow.json",
            "i_number_too_big_neg_int.json", "i_number_too_big_pos_int.json", "i_number_very_big_negative_int.json",
            "i_structure_500_nested_arrays.json", "i_structure_UTF-8_BOM_empty_object.json",
        ]
        for file in Self.cases where file.lastPathComponent.hasPrefix("i_") {
            let data = try Data(contentsOf: file)
            let parsed = (try? JSONDocument(parsing: data)) != nil
            #expect(parsed == accepted.contains(file.lastPathComponent), "\(file.lastPathComponent)")
        }
    }

    /// `test_transform`: how values that parsers reproduce differently come out here.
    @Test func documentsTheTransformCases() throws {
        func value(_ name: String) throws -> JSONValue {
            try JSONDocument(parsing: Data(contentsOf: TestData.url("json/jsontestsuite/test_transform/" + name))).value
        }
        #expect(try value("number_-9223372036854775808.json") == [.int(.min)])
        #expect(try value("number_-9223372036854775809.json") == [.double(-0x1p63)])  // below Int64.min: a double
        #expect(try value("number_9223372036854775807.json") == [.int(.max)])
        #expect(try value("number_9223372036854775808.json") == [.uint(9_223_372_036_854_775_808)])
        #expect(try value("number_10000000000000000999.json") == [.uint(10_000_000_000_000_000_999)])
        #expect(try value("number_1.0.json") == [.double(1.0)])
        #expect(try value("number_1.000000000000000005.json") == [.double(1.0)])
        #expect(try value("number_1e-999.json") == [.double(0)])
        #expect(try value("number_1e6.json") == [.double(1e6)])
        #expect(try value("number_1000000000000000.json") == [.int(1_000_000_000_000_000)])
        // Duplicate keys: the last one wins.
        #expect(try value("object_same_key_different_values.json") == ["a": 2])
        // Keys are Swift strings: NFC and NFD spellings compare equal and collapse into one member.
        if case .object(let members) = try value("object_key_nfc_nfd.json") { #expect(members.count == 1) }
        // An escaped NUL is an ordinary character.
        #expect(try value("string_with_escaped_NULL.json") == ["A\u{0}B"])
        // Invalid code points: rejected like every other invalid UTF-8 or lone surrogate.
        for name in [
            "string_1_invalid_codepoint.json", "string_2_invalid_codepoints.json", "string_3_invalid_codepoints.json",
            "string_1_escaped_invalid_codepoint.json", "string_2_escaped_invalid_codepoints.json",
            "string_3_escaped_invalid_codepoints.json",
        ] {
            #expect(throws: JSONError.self, "\(name)") { try value(name) }
        }
    }
}

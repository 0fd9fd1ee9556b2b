import Foundation
import Testing
import YYModel

/// One field of each kind, read by `@Model`'s fast path (its concrete scalar overloads).
@Model
struct CoercionProbe {
    var int: Int?
    var bool: Bool?
    var string: String?
    var double: Double?
    var date: Date?
}

/// Strict as a type (YYModel's per-model switch), with one property that stays lenient.
@Model(coercion: .strict)
struct StrictProbe {
    var int: Int?
    var string: String?
    @Lenient var loose: Int?
}

/// Lenient as a type, whatever the decoder says.
@Model(coercion: .lenient)
struct LenientProbe {
    var int: Int?
    var flag: Bool?
}

/// YYModel's coercion table and date formats through the `@Model` path (the same rows as
/// `ModelDecoderTests`, which check the Codable bridge).
@Suite struct ModelCoercionTests {
    static let strict: ModelDecoder = {
        var decoder = ModelDecoder()
        decoder.coercion = .strict
        return decoder
    }()

    func probe(_ field: String, _ json: String, strict: Bool = false) throws -> CoercionProbe {
        try (strict ? Self.strict : ModelDecoder()).decode(CoercionProbe.self, from: "{\"\(field)\": \(json)}")
    }

    @Test(arguments: ModelDecoderTests.integerRows)
    func integers(json: String, expected: Int) throws {
        // YYModel's null words read as "no value": nil for an optional field.
        let isNullWord = ["null", #""null""#, #""<null>""#, #""(NULL)""#].contains(json)
        #expect(try probe("int", json).int == (isNullWord ? nil : expected), "\(json)")
    }

    @Test(arguments: ModelDecoderTests.boolRows)
    func bools(json: String, expected: Bool) throws {
        let isNullWord = ["null", #""nil""#].contains(json)
        #expect(try probe("bool", json).bool == (isNullWord ? nil : expected), "\(json)")
    }

    @Test(arguments: ModelDecoderTests.dateRows)
    func dates(text: String, seconds: Double) throws {
        let date = try #require(try probe("date", "\"\(text)\"").date)
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6, "\(text)")
    }

    @Test func strictModeNeedsExactTypes() throws {
        #expect(try probe("int", "7", strict: true).int == 7)
        for (field, json) in [("int", #""2""#), ("int", "true"), ("bool", "1"), ("string", "42"), ("double", #""1.5""#)] {
            #expect(throws: DecodingError.self, "\(field): \(json)") { try probe(field, json, strict: true) }
        }
    }

    @Test func lenientStringsAndDoubles() throws {
        #expect(try probe("string", "42").string == "42")
        #expect(try probe("string", "true").string == "true")
        #expect(try probe("double", #""-3.25""#).double == -3.25)
        #expect(throws: DecodingError.self) { try probe("int", #""abc""#) }
    }

    @Test func aTypeCanBeStrictOrLenientAsAWhole() throws {
        // (The expansion test in YYModelMacrosTests checks that `init(from:)` gets the same settings.)
        for decoder in [ModelDecoder(), Self.strict] {
            #expect(throws: DecodingError.self) { try decoder.decode(StrictProbe.self, from: #"{"int": "2"}"#) }
            #expect(throws: DecodingError.self) { try decoder.decode(StrictProbe.self, from: #"{"string": 42}"#) }
            #expect(try decoder.decode(StrictProbe.self, from: #"{"int": 2, "loose": "3"}"#).loose == 3)
            let lenient = try decoder.decode(LenientProbe.self, from: #"{"int": "7", "flag": "yes"}"#)
            #expect(lenient.int == 7)
            #expect(lenient.flag == true)
        }
    }
}

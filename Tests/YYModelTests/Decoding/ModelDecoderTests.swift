import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYModelCore

@Suite struct ModelDecoderTests {
    struct Box<T: Decodable>: Decodable { var v: T }

    static let lenient = ModelDecoder()
    static let strict: ModelDecoder = {
        var decoder = ModelDecoder()
        decoder.coercion = .strict
        return decoder
    }()

    /// YYModel's coercion table and date formats, shared with the `@Model` path's tests.
    static let integerRows: [(String, Int)] = [
        ("1", 1), ("-1", -1), ("1.5", 1), ("-3.7", -3), (#""2""#, 2), (#""-3.2""#, -3), (#"" 42 ""#, 42),
        ("true", 1), ("false", 0), (#""true""#, 1), (#""YES""#, 1), (#""no""#, 0), (#""False""#, 0),
        ("null", 0), (#""null""#, 0), (#""<null>""#, 0), (#""(NULL)""#, 0), (#""9223372036854775807""#, Int.max),
    ]
    static let boolRows: [(String, Bool)] = [
        ("true", true), ("false", false), ("1", true), ("0", false), ("2.5", true), (#""yes""#, true),
        (#""True""#, true), (#""NO""#, false), (#""1""#, true), (#""0""#, false), ("null", false), (#""nil""#, false),
    ]
    static let dateRows: [(String, Double)] = [
        ("2014-01-20", 1_390_176_000.0),
        ("2014-01-20 12:24:48", 1_390_220_688),
        ("2014-01-20T12:24:48", 1_390_220_688),
        ("2014-01-20T12:24:48Z", 1_390_220_688),
        ("2014-01-20T12:24:48.000", 1_390_220_688),
        ("2014-01-20T12:24:48+0800", 1_390_191_888),
        ("2014-01-20T12:24:48.000Z", 1_390_220_688),
        ("2014-01-20T12:24:48+12:00", 1_390_177_488),
        ("2014-01-20T12:24:48.000+0800", 1_390_191_888),
        ("2014-01-20T12:24:48.000+12:00", 1_390_177_488),
        ("Fri Sep 04 00:12:21 +0800 2015", 1_441_296_741),
        ("Fri Sep 04 00:12:21.000 +0800 2015", 1_441_296_741),
        ("2014-01-20T12:24:53.78Z", 1_390_220_693.78),  // two fraction digits: YYModel #170
        ("2014-01-20T12:24:48.123456789-05:30", 1_390_240_488.123456789),
    ]

    func lenient<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try Self.lenient.decode(Box<T>.self, from: #"{"v": "# + json + "}").v
    }

    func strict<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try Self.strict.decode(Box<T>.self, from: #"{"v": "# + json + "}").v
    }

    // MARK: YYModel's coercion table, lenient and strict

    @Test(arguments: ModelDecoderTests.integerRows)
    func numbersFromAnythingNumeric(json: String, expected: Int) throws {
        #expect(try lenient(Int.self, json) == expected, "\(json)")
    }

    @Test func strictNumbersNeedNumbers() throws {
        #expect(try strict(Int.self, "7") == 7)
        #expect(try strict(Int.self, "7.0") == 7)
        for json in [#""2""#, "true", "null", "1.5", #""abc""#] {
            #expect(throws: DecodingError.self, "\(json)") { try strict(Int.self, json) }
        }
    }

    @Test func garbageIsAnErrorEvenWhenLenient() {
        // YYModel read "abc" as 0 and "12abc" as 12; a typed error is the fix.
        for json in [#""abc""#, #""12abc""#, #""""#, "[1]", "{}"] {
            #expect(throws: DecodingError.self, "\(json)") { try lenient(Int.self, json) }
        }
    }

    @Test func integerRangeIsChecked() throws {
        #expect(try lenient(UInt8.self, "255") == 255)
        #expect(throws: DecodingError.self) { try lenient(UInt8.self, "256") }
        #expect(throws: DecodingError.self) { try lenient(UInt64.self, "-1") }
        #expect(try lenient(UInt64.self, "18446744073709551615") == .max)
        #expect(try lenient(Int64.self, #""-9223372036854775808""#) == .min)
    }

    /// Numbers just below Int64.min round to its Double (-2^63), which fits: they decoded as
    /// Int64.min. The number as written decides.
    @Test func aNumberBelowInt64MinIsOutOfRangeThoughItsDoubleIsNot() throws {
        for json in [
            "-9223372036854775809", "-9223372036854776000", "-9.223372036854775809e18",
            #""-9223372036854775809""#, #""-9.2233720368547758090e18""#,
        ] {
            #expect(throws: DecodingError.self, "\(json)") { try lenient(Int64.self, json) }
            #expect(throws: DecodingError.self, "\(json)") { try lenient(Int.self, json) }
        }
        #expect(throws: DecodingError.self) { try strict(Int.self, "-9223372036854775809") }
        // What is Int64.min, or truncates to it, still decodes.
        for json in ["-9223372036854775808", "-9.223372036854775808e18", "-9223372036854775808.5", #""-9.223372036854775808e18""#] {
            #expect(try lenient(Int64.self, json) == .min, "\(json)")
        }
    }

    @Test(arguments: ModelDecoderTests.boolRows)
    func boolsFromYYModelsWords(json: String, expected: Bool) throws {
        #expect(try lenient(Bool.self, json) == expected, "\(json)")
    }

    @Test func strictBoolsNeedBooleans() {
        for json in ["1", #""true""#, "null"] {
            #expect(throws: DecodingError.self, "\(json)") { try strict(Bool.self, json) }
        }
    }

    @Test func doublesFromNumbersAndNumericStrings() throws {
        #expect(try lenient(Double.self, #""-3.25""#) == -3.25)
        #expect(try lenient(Double.self, "7") == 7)
        #expect(try lenient(Float.self, "0.5") == 0.5)
        #expect(try lenient(Double.self, #""1e3""#) == 1000)
        #expect(throws: DecodingError.self) { try strict(Double.self, #""1.5""#) }
        #expect(throws: DecodingError.self) { try lenient(Double.self, #""NaN""#) }
    }

    @Test func nonConformingFloatsWhenConfigured() throws {
        var decoder = ModelDecoder()
        decoder.coercion = .strict
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try decoder.decode([Double].self, from: #"["+inf", "-inf", 1]"#).prefix(2) == [.infinity, -.infinity])
        #expect(try decoder.decode([Double].self, from: #"["nan"]"#)[0].isNaN)
    }

    @Test func stringsFromNumbersAndBooleans() throws {
        #expect(try lenient(String.self, "42") == "42")
        #expect(try lenient(String.self, "1.5") == "1.5")
        #expect(try lenient(String.self, "true") == "true")
        #expect(throws: DecodingError.self) { try strict(String.self, "42") }
        #expect(throws: DecodingError.self) { try lenient(String.self, "null") }
    }

    @Test func optionalsAreNilForNullAndYYModelsNullWords() throws {
        for json in ["null", #""null""#, #""<null>""#, #""(null)""#, #""Nil""#, #""NULL""#] {
            #expect(try lenient(Int?.self, json) == nil, "\(json)")
            #expect(try lenient(String?.self, json) == nil, "\(json)")
        }
        #expect(try strict(String?.self, #""null""#) == "null")
        struct Missing: Decodable { var a: Int?; var b: String? }
        #expect(try Self.lenient.decode(Missing.self, from: "{}").a == nil)
    }

    // MARK: Dates by length, and timestamps

    @Test(arguments: ModelDecoderTests.dateRows)
    func datesInEveryYYModelFormat(text: String, seconds: Double) throws {
        let date = try lenient(Date.self, "\"\(text)\"")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6, "\(text) → \(date.timeIntervalSince1970)")
    }

    @Test func datesFromUnixSecondsAndMilliseconds() throws {
        #expect(try lenient(Date.self, "1390220688").timeIntervalSince1970 == 1_390_220_688)
        #expect(try lenient(Date.self, "1390220688123").timeIntervalSince1970 == 1_390_220_688.123)
        var decoder = ModelDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(try decoder.decode(Box<Date>.self, from: #"{"v": 1000}"#).v.timeIntervalSince1970 == 1)
    }

    @Test func badDatesAreErrors() {
        for text in ["2014-13-01", "2014-02-30", "yesterday", "2014-01-20T25:00:00Z", "2014-01-20T12:24:48+2500"] {
            #expect(throws: DecodingError.self, "\(text)") { try lenient(Date.self, "\"\(text)\"") }
        }
    }

    // MARK: Foundation types

    @Test func robustnessProbe() throws {
        // YYModel's README probe: a string property from a number, an int from a string,
        // a date from an ISO string, a URL from a string with spaces.
        struct Probe: Decodable { var name: String; var count: Int; var date: Date; var url: URL }
        let probe = try Self.lenient.decode(
            Probe.self,
            from: #"""
                {"name": 123, "count": "45", "date": "2015-08-06T12:00:00Z", "url": "  http://example.com/a b  "}
                """#)
        #expect(probe.name == "123")
        #expect(probe.count == 45)
        #expect(probe.date.timeIntervalSince1970 == 1_438_862_400)
        #expect(probe.url.absoluteString == "http://example.com/a%20b")
    }

    @Test func dataIsBase64AndDecimalsKeepTheirDigits() throws {
        #expect(try lenient(Data.self, #""AAEC""#) == Data([0, 1, 2]))
        #expect(throws: DecodingError.self) { try lenient(Data.self, #""%%%""#) }
        #expect(try lenient(Decimal.self, "12.5") == Decimal(string: "12.5"))
        #expect(try lenient(Decimal.self, #""98765432109876543210""#) == Decimal(string: "98765432109876543210"))
    }

    // MARK: Keys, containers, errors

    @Test func convertsSnakeCaseKeys() throws {
        struct User: Decodable, Equatable { var firstName: String; var avatarURL: String?; var id: Int }
        var decoder = ModelDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let user = try decoder.decode(User.self, from: #"{"first_name": "Yao", "id": 1}"#)
        #expect(user == User(firstName: "Yao", avatarURL: nil, id: 1))
        #expect(ObjectContainer<IndexKey>.camelCase(fromSnakeCase: "_private_key_") == "_privateKey_")
    }

    @Test func findsKeysInLargeObjectsAndWithEscapes() throws {
        let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let big = try Self.lenient.decode([String: Int].self, from: "{\(members)}")
        #expect(big.count == 40)
        #expect(big["k39"] == 39)
        // swift-format-ignore: IdentifiersMustBeASCII
        // (a non-ASCII key, spelled as the JSON spells it)
        struct Escaped: Decodable {
            var é: Int; var quote: Int
            enum CodingKeys: String, CodingKey {
                case é
                case quote = "a\"b"
            }
        }
        let escaped = try Self.lenient.decode(Escaped.self, from: #"{"\u00e9": 1, "a\"b": 2}"#)
        #expect(escaped.é == 1)
        #expect(escaped.quote == 2)
    }

    @Test func duplicateKeysResolveAsTheLookupDescribes() throws {
        struct Small: Decodable { var a: Int; var b: Int }
        // Up to 8 members: the whole object is scanned and the last occurrence wins.
        #expect(try Self.lenient.decode(Small.self, from: #"{"a": 1, "b": 2, "a": 3}"#).a == 3)
        // More: the scan starts after the member read last and stops at the first match.
        struct Large: Decodable { var a, b, c, d, e, f, g, h, i: Int }
        let large = try Self.lenient.decode(Large.self, from: #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10}"#)
        #expect(large.a == 1)
        #expect(large.i == 9)
        // Read out of document order, every member is still found (the scan wraps around).
        let shuffled = try Self.lenient.decode(Large.self, from: #"{"i":9,"h":8,"g":7,"f":6,"e":5,"d":4,"c":3,"b":2,"a":1}"#)
        #expect(shuffled.a == 1)
        #expect(shuffled.b == 2)
        #expect(shuffled.e == 5)
        #expect(shuffled.i == 9)
    }

    @Test func errorsCarryTheCodingPath() throws {
        struct Item: Decodable { var id: Int }
        struct Order: Decodable { var items: [Item] }
        do {
            _ = try Self.strict.decode(Order.self, from: #"{"items": [{"id": 1}, {"id": "two"}]}"#)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1", "id"])
        }
        do {
            _ = try Self.lenient.decode(Order.self, from: #"{"items": [{}]}"#)
            Issue.record("expected an error")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "id")
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 0"])
        }
        #expect { try Self.lenient.decode(Order.self, from: "{") } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.underlyingError is JSONError
        }
    }

    @Test func decodesFromAnUntypedValue() throws {
        struct Point: Decodable, Equatable { var x: Int; var y: Double }
        #expect(try Self.lenient.decode(Point.self, from: ["x": "3", "y": 4.5] as JSONValue) == Point(x: 3, y: 4.5))
    }

    @Test(.needsSharedTestData)
    func agreesWithFoundationOnTheCorpus() throws {
        struct GitHubUser: Codable, Equatable {
            var login: String; var id: Int; var avatarUrl: URL; var followers: Int; var publicRepos: Int
            var siteAdmin: Bool; var blog: String?; var hireable: Bool?; var company: String?; var type: String
        }
        let data = try Data(contentsOf: TestData.url("json/corpus/yymodel_github_user.json"))
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try ours.decode(GitHubUser.self, from: data) == foundation.decode(GitHubUser.self, from: data))
        // Whole corpus files into untyped Codable trees: same results as JSONDecoder.
        for name in ["github_events.json", "apache_builds.json"] {
            let file = try Data(contentsOf: TestData.url("json/corpus/" + name))
            let mine = try ModelDecoder().decode(JSONValue.self, from: file)
            #expect(mine == (try JSONDocument(parsing: file).value), "\(name)")
        }
    }
}

extension ModelDecoderTests {
    @Test func errorsInsideArraysNameTheElement() throws {
        do {
            _ = try Self.strict.decode([[Int]].self, from: #"[[1, 2], [3, "x"]]"#)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 1", "Index 1"])
        }
    }

    @Test func errorsThreeArraysDeepNameEveryIndex() throws {
        struct Shape: Codable { var coordinates: [[[Double]]] }
        do {
            _ = try Self.strict.decode(Shape.self, from: #"{"coordinates": [[[1, 2]], [[3, 4], [5, "x"]]]}"#)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["coordinates", "Index 1", "Index 1", "Index 1"])
        }
    }

    @Test func errorsInsideDictionariesNameTheKeys() throws {
        do {
            _ = try Self.strict.decode([String: [String: Int]].self, from: #"{"a": {"x": 1}, "b": {"y": 2, "z": "no"}}"#)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["b", "z"])
        }
        var snake = ModelDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try snake.decode([String: Int].self, from: #"{"first_key": 1}"#) == ["firstKey": 1])  // as JSONDecoder does
        #expect(try Self.strict.decode([String: Int].self, from: #"{"first_key": 1}"#) == ["first_key": 1])
    }
}

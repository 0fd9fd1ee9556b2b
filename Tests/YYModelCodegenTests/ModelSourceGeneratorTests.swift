// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (property names the key rules must handle, however odd)
import Foundation
import Testing
import YYModel

@testable import YYModelCodegen

// The output of `ModelSourceGenerator` for `sampleJSON` below, pasted as is: it must compile
// with the macro and decode the sample it came from.
@Model
struct GeneratedTweet {
    var id: Int
    var score: Double
    var tags: [GeneratedTag]?
    var user: GeneratedUser?
    var `default`: JSONValue?
}

@Model
struct GeneratedTag {
    var text: String
}

@Model
struct GeneratedUser {
    @Key("2fa") var _2fa: Bool
    @Key("screen_name") var screenName: String
}

// The output for `hostileKeysJSON`: keys that are Swift keywords, empty, not identifiers, or
// that fold to the same name; it must compile with the macro too.
@Model
struct GeneratedHostileKeys {
    @Key(verbatim: "") var value: Int
    @Key("Protocol") var `protocol`: Int
    @Key("Type") var type: Int
    @Key("_") var value_: Int
    @Key("a-b") var aB: Int
    @Key(verbatim: "a.b") var aB_: Int
    @Key("aB") var aB__: Int
    @Key("a_b") var aB___: Int
    var `init`: Int
    @Key("line\nbreak") var lineBreak: Int
    @Key("q\"\\") var q: Int
    var `self`: Bool
    @Key("value") var value__: Int
}

// The output for `shadowingJSON`: nested objects under keys that would name types the code
// needs (`String`, `Model`, `Self`, `Type`).
@Model
struct GeneratedShadowing {
    var any: [AnyItem]
    var model: Model2
    var `self`: Self2
    var string: String2
    var type: Type2
}

@Model
struct AnyItem {
    var c: JSONValue?
}

@Model
struct Model2 {
    var k: Double
}

@Model
struct Self2 {
    var a: Int
}

@Model
struct String2 {
    var text: String
}

@Model
struct Type2 {
    var b: Bool
}

// The output for `apiResponseJSON`: objects under "data", "error" and "result", as API
// responses have; the structs must not shadow Foundation's `Data` or Swift's `Error` and
// `Result` for the rest of the module (this file uses all three below).
@Model
struct GeneratedAPIResponse {
    var data: Data2
    var error: Error2?
    var result: [ResultItem]
}

@Model
struct Data2 {
    var id: Int
}

@Model
struct Error2 {
    var code: Int
}

@Model
struct ResultItem {
    var ok: Bool
}

@Suite struct ModelSourceGeneratorTests {
    static let apiResponseJSON =
        #"[{"data": {"id": 1}, "error": null, "result": [{"ok": true}]}, {"data": {"id": 2}, "error": {"code": 7}, "result": []}]"#
    static let shadowingJSON = #"{"string": {"text": "x"}, "self": {"a": 1}, "model": {"k": 1.5}, "type": {"b": true}, "any": [{"c": null}]}"#
    static let hostileKeysJSON =
        #"{"a_b": 1, "aB": 2, "": 3, "value": 4, "Type": 5, "init": 6, "_": 7, "a-b": 8, "Protocol": 9, "self": true, "a.b": 10, "line\nbreak": 11, "q\"\\": 12}"#

    static let sampleJSON = #"""
        [{"id": 1, "user": {"screen_name": "a", "2fa": true}, "tags": [{"text": "x"}], "score": 1},
         {"id": 2, "score": 2.5, "default": null}]
        """#

    @Test func generatesModelsThatFitTheSample() throws {
        let source = try ModelSourceGenerator().source(for: JSONValue(parsing: Self.sampleJSON), typeName: "GeneratedTweet")
        #expect(
            source == """
                import YYModel

                @Model
                struct GeneratedTweet {
                    var id: Int
                    var score: Double
                    var tags: [Tag]?
                    var user: User?
                    var `default`: JSONValue?
                }

                @Model
                struct Tag {
                    var text: String
                }

                @Model
                struct User {
                    @Key("2fa") var _2fa: Bool
                    @Key("screen_name") var screenName: String
                }

                """)
    }

    @Test func theGeneratedTypesDecodeTheSample() throws {
        let tweets = try ModelDecoder().decode([GeneratedTweet].self, from: Self.sampleJSON)
        try #require(tweets.count == 2)
        #expect(tweets[0].user?.screenName == "a")
        #expect(tweets[0].user?._2fa == true)
        #expect(tweets[0].tags?.first?.text == "x")
        #expect(tweets[1].score == 2.5)
        #expect(tweets[1].user == nil)
    }

    @Test func hostileKeysBecomeDistinctPropertiesThatCompileAndDecode() throws {
        let source = try ModelSourceGenerator().source(for: JSONValue(parsing: Self.hostileKeysJSON), typeName: "GeneratedHostileKeys")
        #expect(
            source == """
                import YYModel

                @Model
                struct GeneratedHostileKeys {
                    @Key(verbatim: "") var value: Int
                    @Key("Protocol") var `protocol`: Int
                    @Key("Type") var type: Int
                    @Key("_") var value_: Int
                    @Key("a-b") var aB: Int
                    @Key(verbatim: "a.b") var aB_: Int
                    @Key("aB") var aB__: Int
                    @Key("a_b") var aB___: Int
                    var `init`: Int
                    @Key("line\\nbreak") var lineBreak: Int
                    @Key("q\\"\\\\") var q: Int
                    var `self`: Bool
                    @Key("value") var value__: Int
                }

                """)
        let decoded = try ModelDecoder().decode(GeneratedHostileKeys.self, from: Self.hostileKeysJSON)
        let values: [Int] = [
            decoded.aB___, decoded.aB__, decoded.value, decoded.value__, decoded.type, decoded.`init`, decoded.value_,
            decoded.aB, decoded.protocol, decoded.aB_, decoded.lineBreak, decoded.q,
        ]
        #expect(values == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        #expect(decoded.`self`)
    }

    @Test func typeNamesThatTheGeneratedCodeNeedsAreNumbered() throws {
        let source = try ModelSourceGenerator().source(for: JSONValue(parsing: Self.shadowingJSON), typeName: "GeneratedShadowing")
        #expect(
            source == """
                import YYModel

                @Model
                struct GeneratedShadowing {
                    var any: [AnyItem]
                    var model: Model2
                    var `self`: Self2
                    var string: String2
                    var type: Type2
                }

                @Model
                struct AnyItem {
                    var c: JSONValue?
                }

                @Model
                struct Model2 {
                    var k: Double
                }

                @Model
                struct Self2 {
                    var a: Int
                }

                @Model
                struct String2 {
                    var text: String
                }

                @Model
                struct Type2 {
                    var b: Bool
                }

                """)
        let decoded = try ModelDecoder().decode(GeneratedShadowing.self, from: Self.shadowingJSON)
        #expect(decoded.string.text == "x")
        #expect(decoded.`self`.a == 1)
        #expect(decoded.model.k == 1.5)
        #expect(decoded.type.b)
        #expect(decoded.any.count == 1 && decoded.any[0].c == nil)
        let root = try ModelSourceGenerator().source(for: JSONValue(parsing: #"{"a": 1}"#), typeName: "String")
        #expect(root.contains("struct String2 {"), "\(root)")
    }

    @Test func typeNamesOfStandardLibraryAndFoundationTypesAreNumberedAndTheRootNameIsKept() throws {
        let source = try ModelSourceGenerator().source(for: JSONValue(parsing: Self.apiResponseJSON), typeName: "GeneratedAPIResponse")
        #expect(
            source == """
                import YYModel

                @Model
                struct GeneratedAPIResponse {
                    var data: Data2
                    var error: Error2?
                    var result: [ResultItem]
                }

                @Model
                struct Data2 {
                    var id: Int
                }

                @Model
                struct Error2 {
                    var code: Int
                }

                @Model
                struct ResultItem {
                    var ok: Bool
                }

                """)
        // Foundation's `Data` and Swift's `Result` and `Error` still mean what they mean here.
        let bytes: Data = Data(Self.apiResponseJSON.utf8)
        let outcome: Result<[GeneratedAPIResponse], any Error> = Result { try ModelDecoder().decode([GeneratedAPIResponse].self, from: bytes) }
        let decoded = try outcome.get()
        #expect(decoded.map(\.data.id) == [1, 2])
        #expect(decoded.map(\.error?.code) == [nil, 7])
        #expect(decoded.map(\.result.count) == [1, 0])
        // A root name that can name a type is kept as written; a keyword is made into a type name.
        for (given, expected) in [("APIResponse", "APIResponse"), ("_Raw", "_Raw"), ("class", "Class"), ("URL", "URL2")] {
            let root = try ModelSourceGenerator().source(for: JSONValue(parsing: #"{"a": 1}"#), typeName: given)
            #expect(root.contains("struct \(expected) {"), "\(root)")
        }
        for name in ["Data", "Error", "Result", "Optional", "Array", "Date", "URL", "Task"] {
            let root = try ModelSourceGenerator().source(for: JSONValue(parsing: #"{"a": 1}"#), typeName: name)
            #expect(root.contains("struct \(name)2 {"), "\(root)")
        }
    }

    @Test func namesAndSingulars() {
        #expect(ModelSourceGenerator.propertyName("created_at") == "createdAt")
        #expect(ModelSourceGenerator.propertyName("HTMLUrl") == "htmlurl")  // one word: no lower-to-upper step
        #expect(ModelSourceGenerator.propertyName("avatarURL") == "avatarUrl")
        #expect(ModelSourceGenerator.propertyName("2fa") == "_2fa")
        #expect(ModelSourceGenerator.typeName("user_mentions") == "UserMentions")
        #expect(ModelSourceGenerator.singular("statuses") == "status")
        #expect(ModelSourceGenerator.singular("categories") == "category")
        #expect(ModelSourceGenerator.singular("media") == "mediaItem")
        #expect(ModelSourceGenerator.literal("a\"b\\c\n") == #""a\"b\\c\n""#)
    }

    @Test func rejectsSamplesThatAreNotObjects() {
        for text in ["1", "[1, 2]", "\"x\"", "[]"] {
            #expect(throws: ModelSourceGeneratorError.notAnObject, "\(text)") {
                try ModelSourceGenerator().source(for: JSONValue(parsing: text), typeName: "T")
            }
        }
    }
}

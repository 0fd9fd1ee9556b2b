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

@Suite struct ModelSourceGeneratorTests {
    static let sampleJSON = #"""
        [{"id": 1, "user": {"screen_name": "a", "2fa": true}, "tags": [{"text": "x"}], "score": 1},
         {"id": 2, "score": 2.5, "default": null}]
        """#

    @Test func generatesModelsThatFitTheSample() throws {
        let source = try ModelSourceGenerator().source(for: JSONValue(parsing: Self.sampleJSON), typeName: "GeneratedTweet")
        #expect(source == """
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
        #expect(tweets.count == 2)
        #expect(tweets[0].user?.screenName == "a")
        #expect(tweets[0].user?._2fa == true)
        #expect(tweets[0].tags?.first?.text == "x")
        #expect(tweets[1].score == 2.5)
        #expect(tweets[1].user == nil)
    }

    @Test func namesAndSingulars() {
        #expect(ModelSourceGenerator.propertyName("created_at") == "createdAt")
        #expect(ModelSourceGenerator.propertyName("HTMLUrl") == "htmlurl")   // one word: no lower-to-upper step
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

import Foundation
import Testing

@testable import YYModelCore

@Suite struct ModelEncoderTests {
    struct Book: Codable, Equatable {
        var title: String
        var pages: Int
        var price: Double
        var tags: [String]
        var published: Date
        var cover: URL?
        var isbn: UInt64
        var rating: Float?
    }

    static let book = Book(
        title: "YYKit \"in\" Swift", pages: 320, price: 8.8, tags: ["cache", "model"],
        published: Date(timeIntervalSince1970: 1_390_220_688), cover: URL(string: "https://example.com/c.png"),
        isbn: 9_787_111_111_111, rating: nil)

    @Test func writesMembersInEncodingOrder() throws {
        let text = try ModelEncoder().encodeToString(Self.book)
        #expect(
            text
                == #"{"title":"YYKit \"in\" Swift","pages":320,"price":8.8,"tags":["cache","model"],"published":"2014-01-20T12:24:48Z","cover":"https://example.com/c.png","isbn":9787111111111}"#
        )
    }

    @Test func roundTripsThroughTheDecoder() throws {
        let bytes = try ModelEncoder().encodeToBytes(Self.book)
        #expect(try ModelDecoder().decode(Book.self, from: bytes) == Self.book)
        var strict = ModelDecoder()
        strict.coercion = .strict
        #expect(try strict.decode(Book.self, from: bytes) == Self.book)
    }

    @Test func agreesWithFoundation() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        foundation.dateEncodingStrategy = .iso8601
        var ours = ModelEncoder()
        ours.sortedKeys = true
        #expect(try ours.encodeToString(Self.book) == String(decoding: try foundation.encode(Self.book), as: UTF8.self))
    }

    @Test func convertsKeysToSnakeCase() throws {
        struct User: Encodable { var firstName = "Yao"; var avatarURL = "u"; var id = 1; var isHTTPSOnly = true }
        var encoder = ModelEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(try encoder.encodeToString(User()) == #"{"first_name":"Yao","avatar_url":"u","id":1,"is_https_only":true}"#)
    }

    @Test func prettyAndSorted() throws {
        var encoder = ModelEncoder()
        encoder.pretty = true
        encoder.sortedKeys = true
        #expect(try encoder.encodeToString(["b": [1], "a": []]) == "{\n  \"a\": [],\n  \"b\": [\n    1\n  ]\n}")
    }

    @Test func datesDataAndNonFiniteNumbers() throws {
        #expect(try ModelEncoder().encodeToString([Date(timeIntervalSince1970: 0.25)]) == #"["1970-01-01T00:00:00.250Z"]"#)
        var seconds = ModelEncoder()
        seconds.dateEncodingStrategy = .secondsSince1970
        #expect(try seconds.encodeToString([Date(timeIntervalSince1970: 12)]) == "[12.0]")
        #expect(try ModelEncoder().encodeToString([Data([0, 1, 2])]) == #"["AAEC"]"#)
        #expect(throws: EncodingError.self) { try ModelEncoder().encodeToString([Double.infinity]) }
        var lenient = ModelEncoder()
        lenient.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        #expect(try lenient.encodeToString([Double.infinity, -.infinity]) == #"["inf","-inf"]"#)
    }

    @Test func datesOutsideWhatTheFormatWritesAreAnEncodingErrorNotACrash() throws {
        #expect(try ModelEncoder().encodeToString([Date(timeIntervalSince1970: 253_402_300_799)]) == #"["9999-12-31T23:59:59Z"]"#)
        #expect(try ModelEncoder().encodeToString([Date(timeIntervalSince1970: -62_135_596_800)]) == #"["0001-01-01T00:00:00Z"]"#)
        for seconds in [1e300, -1e300, .infinity, .nan, 253_402_300_800] {
            #expect(throws: EncodingError.self, "\(seconds)") { try ModelEncoder().encodeToString([Date(timeIntervalSince1970: seconds)]) }
        }
        var milliseconds = ModelEncoder()
        milliseconds.dateEncodingStrategy = .millisecondsSince1970
        #expect(throws: EncodingError.self) { try milliseconds.encodeToString([Date(timeIntervalSince1970: .infinity)]) }
        #expect(try milliseconds.encodeToString([Date(timeIntervalSince1970: 1e300)]) == "[1e+303]")
    }

    @Test func encodesToAnUntypedValue() throws {
        struct Point: Encodable { var x = 1; var y = 2.5; var label: String? = nil }
        #expect(try ModelEncoder().encodeToValue(Point()) == ["x": 1, "y": 2.5])
    }

    @Test func classHierarchiesUseSuperEncoders() throws {
        class Base: Encodable {
            var id = 7
            enum CodingKeys: CodingKey { case id }
        }
        final class Derived: Base {
            var name = "d"
            enum Keys: CodingKey { case name }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(name, forKey: .name)
                try super.encode(to: container.superEncoder())
            }
        }
        #expect(try ModelEncoder().encodeToValue(Derived()) == ["name": "d", "super": ["id": 7]])
        struct Wrapper: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try "scalar".encode(to: container.superEncoder())
            }
        }
        #expect(try ModelEncoder().encodeToValue(Wrapper()) == ["scalar"])
    }
    /// A linked list of classes through the Codable path.
    final class Link: Codable, ChainLink {
        var value = 1
        var next: Link?

        init(next: Link?) { self.next = next }
    }

    @Test func aReferenceCycleOrNestingDeeperThanTheLimitIsAnErrorNotAStackOverflow() throws {
        let cyclic = Link(next: nil)
        cyclic.next = cyclic
        defer { cyclic.next = nil }
        // It recursed until the stack overflowed: the process died of SIGSEGV.
        #expect(throws: EncodingError.self) { try ModelEncoder().encode(cyclic) }
        #expect(throws: EncodingError.self) { try ModelEncoder().encodeToValue(cyclic) }
        // 512 levels, what the decoder reads by default, are written and read back; 513 are not.
        let deepest = try ModelEncoder().encode(Link.chain(512))
        #expect(try ModelDecoder().decode(Link.self, from: deepest).count == 512)
        #expect(throws: EncodingError.self) { try ModelEncoder().encode(Link.chain(513)) }
        var shallow = ModelEncoder()
        shallow.maximumDepth = 3
        #expect(try shallow.encodeToString(Link.chain(3)) == #"{"value":1,"next":{"value":1,"next":{"value":1}}}"#)
        #expect(throws: EncodingError.self) { try shallow.encode(Link.chain(4)) }
        #expect(throws: EncodingError.self) { try shallow.encode([[[[1]]]]) }
        #expect(try shallow.encodeToString([[[1]]]) == "[[[1]]]")
    }
}

/// A linked list of final classes, to nest values as deep as a test needs.
protocol ChainLink: AnyObject {
    init(next: Self?)
    var next: Self? { get }
}

extension ChainLink {
    /// `count` links, each the next of the one before.
    static func chain(_ count: Int) -> Self {
        (1..<count).reduce(Self(next: nil)) { tail, _ in Self(next: tail) }
    }

    /// The links from this one to the end.
    var count: Int { 1 + (next?.count ?? 0) }
}

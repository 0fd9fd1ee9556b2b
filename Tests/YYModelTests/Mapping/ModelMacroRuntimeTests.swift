import Foundation
import Testing
import YYModel

@Model
struct MappedBook: Equatable {
    @Key("book_id", "id", "ID") var id: Int
    @Key("ext.desc") var summary: String?
    @Key("ext.pages") var pages: Int = 0
    var name: String
    @Strict var price: Double = 0
    @Lenient var stock: Int = 0
    @Ignore var cache: [String] = ["untouched"]
    var author: MappedAuthor?
    var tags: [String] = []
}

@Model
struct MappedAuthor: Equatable {
    var name: String
    @Key("birthday") var born: Date?
}

@Model
final class MappedShelf {
    var books: [MappedBook] = []
    var owner: String?
    @Key("meta.created.by") var creator: String?

    /// A class with a generated `init(from:)` has no implicit `init()`; declare one when needed.
    init() {}
}

/// A linked list of classes written straight into the output (the direct path).
@Model
final class MappedLink: ChainLink {
    var value: Int = 1
    var next: MappedLink?
    var more: [MappedLink] = []

    init(next: MappedLink?) { self.next = next }
}

@Model
struct MappedTag: Hashable {
    var name: String
}

@Model
struct MappedLibrary: Equatable {
    var tags: Set<MappedTag>
    var authors: [String: MappedAuthor]
    @Key("name") var title: String
    @Key("name") var label: String
}

@Model
struct VerbatimKeys: Equatable {
    @Key(verbatim: "a.b") var dotted: Int
    @Key(verbatim: "") var empty: String?
    @Key("a.b") var path: Int?
}

/// `@Model` types at run time: YYModel's mapper, model-to-JSON and nested-model behaviours.
@Suite struct ModelMacroRuntimeTests {
    let decoder = ModelDecoder()

    @Test func fallbackKeysTakeTheFirstPresentOne() throws {
        #expect(try decoder.decode(MappedBook.self, from: #"{"id": 1, "name": "a"}"#).id == 1)
        #expect(try decoder.decode(MappedBook.self, from: #"{"ID": 2, "name": "a"}"#).id == 2)
        #expect(try decoder.decode(MappedBook.self, from: #"{"ID": 2, "book_id": 3, "name": "a"}"#).id == 3)
        #expect(try decoder.decode(MappedBook.self, from: #"{"book_id": null, "id": 4, "name": "a"}"#).id == 4)
        #expect(throws: DecodingError.self) { try decoder.decode(MappedBook.self, from: #"{"name": "a"}"#) }
    }

    @Test func keyPathsReadNestedMembers() throws {
        let book = try decoder.decode(MappedBook.self, from: #"{"id": 1, "name": "a", "ext": {"desc": "d", "pages": "12"}}"#)
        #expect(book.summary == "d")
        #expect(book.pages == 12)
        let noExt = try decoder.decode(MappedBook.self, from: #"{"id": 1, "name": "a", "ext": "not an object"}"#)
        #expect(noExt.summary == nil)
        #expect(noExt.pages == 0)
    }

    @Test func defaultsFillMissingMembersAndIgnoredOnesStayPut() throws {
        let book = try decoder.decode(MappedBook.self, from: #"{"id": 1, "name": "a", "cache": ["from json"]}"#)
        #expect(
            book
                == MappedBook(
                    id: 1, summary: nil, pages: 0, name: "a", price: 0, stock: 0,
                    cache: ["untouched"], author: nil, tags: []))
    }

    @Test func perFieldCoercionOverridesTheDecoder() throws {
        #expect(throws: DecodingError.self) {
            try decoder.decode(MappedBook.self, from: #"{"id": 1, "name": "a", "price": "1.5"}"#)
        }
        var strict = ModelDecoder()
        strict.coercion = .strict
        let book = try strict.decode(MappedBook.self, from: #"{"id": 1, "name": "a", "stock": "3"}"#)
        #expect(book.stock == 3)
        #expect(throws: DecodingError.self) { try strict.decode(MappedBook.self, from: #"{"id": "1", "name": "a"}"#) }
    }

    @Test func nestedModelsAndArraysOfModels() throws {
        let shelf = try decoder.decode(
            MappedShelf.self,
            from: #"""
                {"owner": "me", "meta": {"created": {"by": "yy"}},
                 "books": [{"id": 1, "name": "a", "author": {"name": "x", "birthday": "2000-01-02"}}, {"ID": 2, "name": "b"}]}
                """#)
        #expect(shelf.owner == "me")
        #expect(shelf.creator == "yy")
        #expect(shelf.books.map(\.id) == [1, 2])
        #expect(shelf.books[0].author?.born == Date(timeIntervalSince1970: 946_771_200))
    }

    @Test func encodingUsesTheFirstKeyAndRebuildsKeyPaths() throws {
        let book = MappedBook(id: 7, summary: "s", pages: 3, name: "n", price: 1.5, stock: 2, author: nil, tags: ["t"])
        var encoder = ModelEncoder()
        encoder.sortedKeys = true
        #expect(try encoder.encodeToString(book) == #"{"book_id":7,"ext":{"desc":"s","pages":3},"name":"n","price":1.5,"stock":2,"tags":["t"]}"#)
        #expect(try decoder.decode(MappedBook.self, from: encoder.encodeToBytes(book)) == book)
        let shelf = MappedShelf()
        #expect(try encoder.encodeToString(shelf) == #"{"books":[]}"#)  // nil key-path groups are left out
        shelf.creator = "yy"
        #expect(try encoder.encodeToString(shelf) == #"{"books":[],"meta":{"created":{"by":"yy"}}}"#)
    }

    @Test func setsAndDictionariesOfModelsAndTwoPropertiesOnOneKey() throws {
        let json = #"{"tags": [{"name": "a"}, {"name": "b"}, {"name": "a"}], "authors": {"x": {"name": "X"}}, "name": "lib"}"#
        let library = try decoder.decode(MappedLibrary.self, from: json)
        #expect(library.tags == [MappedTag(name: "a"), MappedTag(name: "b")])
        #expect(library.authors == ["x": MappedAuthor(name: "X", born: nil)])
        #expect(library.title == "lib")
        #expect(library.label == "lib")
        // The shared key is written once (the later property's value), by the direct writer and
        // through Codable.
        #expect(
            try ModelEncoder().encodeToString(MappedLibrary(tags: [], authors: [:], title: "t", label: "l"))
                == #"{"tags":[],"authors":{},"name":"l"}"#)
        let foundation = try JSONEncoder().encode(MappedLibrary(tags: [], authors: [:], title: "t", label: "l"))
        #expect(
            try JSONValue(parsing: String(decoding: foundation, as: UTF8.self)) == ["tags": [], "authors": [:], "name": "l"],
            "\(String(decoding: foundation, as: UTF8.self))")
        #expect(try decoder.decode(MappedLibrary.self, from: ModelEncoder().encodeToBytes(library)) == library)
        #expect(try JSONDecoder().decode(MappedLibrary.self, from: Data(json.utf8)) == library)
    }

    @Test func verbatimKeysKeepTheirDotsAndMayBeEmpty() throws {
        let json = #"{"a.b": 1, "": "e", "a": {"b": 2}}"#
        let value = VerbatimKeys(dotted: 1, empty: "e", path: 2)
        #expect(try decoder.decode(VerbatimKeys.self, from: json) == value)
        #expect(try JSONDecoder().decode(VerbatimKeys.self, from: Data(json.utf8)) == value)
        var encoder = ModelEncoder()
        encoder.sortedKeys = true
        #expect(try encoder.encodeToString(value) == #"{"":"e","a":{"b":2},"a.b":1}"#)
        #expect(try decoder.decode(VerbatimKeys.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test func aDateTheFormatCannotWriteIsAnErrorOnTheDirectWriterToo() {
        #expect(throws: EncodingError.self) {
            try ModelEncoder().encodeToString(MappedAuthor(name: "x", born: Date(timeIntervalSince1970: .infinity)))
        }
        #expect(throws: EncodingError.self) {
            try ModelEncoder().encodeToString([MappedAuthor(name: "x", born: Date(timeIntervalSince1970: -1e300))])
        }
    }

    @Test func worksWithFoundationsCoders() throws {
        let data = Data(#"{"ID": 5, "name": "f", "ext": {"desc": "d"}}"#.utf8)
        let book = try JSONDecoder().decode(MappedBook.self, from: data)
        #expect(book.id == 5)
        #expect(book.summary == "d")
        let encoded = try JSONEncoder().encode(book)
        #expect(try JSONDecoder().decode(MappedBook.self, from: encoded) == book)
    }
}

@Model
struct WideModel: Equatable {
    var a: Int; var b: String; var c: Double; var d: Bool; var e: Int64; var f: UInt64
    var g: [Int]; var h: String?; var i: Int = -1
    @Key("j\"k") var quoted: String
    @Key("nested.x", "x") var x: Int
}

extension ModelMacroRuntimeTests {
    /// More than 8 members, in an order unlike the declaration, one escaped key, extra members:
    /// the tape fast path and the Codable path must agree.
    @Test func fastPathFindsMembersOfLargeObjectsInAnyOrder() throws {
        let json = #"""
            {"zz": 0, "x": 9, "g": [1, 2], "f": 18446744073709551615, "\u006a\"k": "q", "e": -5, "d": true,
             "c": 1.5, "b": "bee", "a": 1, "yy": {"deep": [1]}, "h": null}
            """#
        let fast = try decoder.decode(WideModel.self, from: json)
        #expect(fast == WideModel(a: 1, b: "bee", c: 1.5, d: true, e: -5, f: .max, g: [1, 2], h: nil, i: -1, quoted: "q", x: 9))
        #expect(try JSONDecoder().decode(WideModel.self, from: Data(json.utf8)) == fast)
        // Decoded twice in a row through one decoder: the cursor state does not leak between models.
        let pair = try decoder.decode([WideModel].self, from: "[\(json), \(json)]")
        #expect(pair == [fast, fast])
    }
}

@Model
struct DatedEvent: Equatable {
    var name: String
    @DateFormat(.millisecondsSince1970) var start: Date
    @DateFormat(.custom({ text in text == "epoch" ? Date(timeIntervalSince1970: 0) : nil })) var origin: Date?
    var end: Date?
}

extension ModelMacroRuntimeTests {
    /// `@DateFormat` overrides the decoder's date strategy for one field, on either decoding path.
    @Test func perFieldDateFormats() throws {
        let json = #"{"name": "n", "start": 1500, "origin": "epoch", "end": "2014-01-20T12:24:48Z"}"#
        let expected = DatedEvent(
            name: "n", start: Date(timeIntervalSince1970: 1.5), origin: Date(timeIntervalSince1970: 0),
            end: Date(timeIntervalSince1970: 1_390_220_688))
        #expect(try decoder.decode(DatedEvent.self, from: json) == expected)  // the tape fast path
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        #expect(try foundation.decode(DatedEvent.self, from: Data(json.utf8)) == expected)  // Codable path, another decoder
        #expect(throws: DecodingError.self) { try decoder.decode(DatedEvent.self, from: #"{"name": "n", "start": 1, "origin": "later"}"#) }
    }
}

extension ModelMacroRuntimeTests {
    /// The direct writer (default options) and the tree (encodeToValue) must say the same thing,
    /// for every kind of model: key paths, fallback keys, classes, nesting, polymorphism, dates,
    /// hooks (which keep the tree), escaped keys.
    @Test func directWritingAgreesWithTheTree() throws {
        let encoder = ModelEncoder()
        func check<T: Encodable>(_ value: T, _ label: String) throws {
            let direct = try JSONValue(parsing: encoder.encodeToBytes(value))
            #expect(direct == (try encoder.encodeToValue(value)), "\(label)")
        }
        try check(
            MappedBook(
                id: 7, summary: "s", pages: 3, name: "n\"q", price: 1.5, stock: 2,
                author: MappedAuthor(name: "a", born: Date(timeIntervalSince1970: 1)), tags: ["t", "u"]), "book")
        try check(MappedBook(id: 7, summary: nil, pages: 0, name: "n", author: nil), "book without optionals")
        let shelf = MappedShelf()
        shelf.books = [MappedBook(id: 1, name: "x")]
        try check(shelf, "empty group left out")
        shelf.creator = "yy"
        try check(shelf, "nested group")
        try check(
            try decoder.decode(
                WideModel.self, from: #"{"a": 1, "b": "b", "c": 2.5, "d": false, "e": -1, "f": 18446744073709551615, "g": [], "j\"k": "q", "x": 3}"#),
            "wide")
        try check(try decoder.decode(Drawing.self, from: PolymorphicTests.json), "polymorphic")
        try check(HookedOrder(id: 1, total: 2), "hooked")
        try check([MappedBook(id: 1, name: "x"), MappedBook(id: 2, name: "y")], "array of models")
        #expect(try encoder.encodeToString(HookedOrder(id: 1, total: 2)).contains(#""version":2"#))
    }
    @Test func aReferenceCycleOrNestingDeeperThanTheLimitIsAnErrorWhenWrittenDirectly() throws {
        let cyclic = MappedLink(next: nil)
        cyclic.next = cyclic
        let throughAnArray = MappedLink(next: nil)
        throughAnArray.more = [throughAnArray]
        defer { (cyclic.next, throughAnArray.more) = (nil, []) }
        #expect(throws: EncodingError.self) { try ModelEncoder().encode(cyclic) }
        #expect(throws: EncodingError.self) { try ModelEncoder().encode(throughAnArray) }
        // 512 levels, what the decoder reads by default, are written and read back; 513 are not.
        // (511 links: the last one's empty `more` is the 512th.)
        let deepest = try ModelEncoder().encode(MappedLink.chain(511))
        #expect(try ModelDecoder().decode(MappedLink.self, from: deepest).count == 511)
        #expect(throws: EncodingError.self) { try ModelEncoder().encode(MappedLink.chain(512)) }
        var shallow = ModelEncoder()
        shallow.maximumDepth = 3
        #expect(try shallow.encodeToString(MappedLink.chain(2)) == #"{"value":1,"next":{"value":1,"more":[]},"more":[]}"#)
        #expect(throws: EncodingError.self) { try shallow.encode(MappedLink.chain(3)) }
        // An array is a level too: a link in `more` is at the third, its own `more` at the fourth.
        let inArray = MappedLink(next: nil)
        inArray.more = [MappedLink(next: nil)]
        #expect(throws: EncodingError.self) { try shallow.encode(inArray) }
    }
}

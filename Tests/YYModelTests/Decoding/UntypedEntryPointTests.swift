import Foundation
import Testing

@testable import YYModelCore

@Suite struct UntypedEntryPointTests {
    struct Book: Codable, Equatable { var name: String; var pages: Int }

    @Test func modelFromEveryKindOfInput() throws {
        let decoder = ModelDecoder()
        let expected = Book(name: "Harry", pages: 512)
        #expect(try decoder.decode(Book.self, from: #"{"name": "Harry", "pages": "512"}"#) == expected)
        #expect(try decoder.decode(Book.self, from: Data(#"{"name": "Harry", "pages": 512}"#.utf8)) == expected)
        #expect(try decoder.decode(Book.self, from: ["name": "Harry", "pages": 512] as JSONValue) == expected)
        #expect(try decoder.decode(Book.self, fromJSONObject: ["name": "Harry", "pages": 512] as [String: Any]) == expected)
        #expect(throws: DecodingError.self) { try decoder.decode(Book.self, fromJSONObject: Date()) }
    }

    @Test func modelToEveryKindOfOutput() throws {
        let book = Book(name: "Harry", pages: 512)
        var encoder = ModelEncoder()
        encoder.sortedKeys = true
        #expect(try encoder.encodeToString(book) == #"{"name":"Harry","pages":512}"#)
        #expect(try encoder.encode(book) == Data(#"{"name":"Harry","pages":512}"#.utf8))
        #expect(try encoder.encodeToValue(book) == ["name": "Harry", "pages": 512])
    }

    @Test func arraysAndDictionariesOfModelsSkipWhatIsNotAModel() throws {
        let decoder = ModelDecoder()
        let books = try decoder.decodeArray(
            of: Book.self, from: Array(#"[{"name": "A", "pages": 1}, 7, "x", {"name": "B"}, {"name": "C", "pages": 3}]"#.utf8))
        #expect(books == [Book(name: "A", pages: 1), Book(name: "C", pages: 3)])
        let shelf = try decoder.decodeDictionary(of: Book.self, from: Array(#"{"a": {"name": "A", "pages": 1}, "b": null}"#.utf8))
        #expect(shelf == ["a": Book(name: "A", pages: 1)])
        #expect(throws: DecodingError.self) { try decoder.decodeArray(of: Book.self, from: Array("{}".utf8)) }
    }
}

// swift-format-ignore-file
// (each snippet is the README's or the DocC catalog's code block, character for character)
import Foundation
import YYModel

// The README's YYModel examples, compiled. Never called.

@Model
struct User {
    var id: Int
    var name: String?
}

@Model
struct Author {
    var name: String
}

// snippet.begin model-declaration
// YYModel's mapper, generated at compile time.
@Model
struct Book {
    @Key("book_id", "id", "ID") var id: Int       // fallback keys: the first present (and not null) wins
    @Key("ext.desc") var summary: String?        // a key path; rebuilt as nested objects on encode
    var pages: Int = 0                            // missing → the initial value
    @Strict var price: Double = 0                 // exact JSON types for this field, whatever the decoder says
    @Lenient var stock: Int = 0                   // YYModel's coercions for this field
    @Ignore var cache: [String] = []              // neither read nor written
    var author: Author?                           // nested @Model types, arrays and dictionaries of them
}
// snippet.end

func modelSnippet(data: Data, bytes: [UInt8]) throws {
    // snippet.begin model-parsing
    // Parse once into a flat tape (validating: RFC 8259, UTF-8, depth and size limits).
    let document = try JSONDocument(parsing: data)          // throws JSONError (offset, line, column)
    let value = document.value                               // JSONValue: .object, .array, .int, .uint, .double, …
    let pretty = document.formatted(pretty: true)            // member order kept
    let text = try JSONWriter(sortedKeys: true).string(for: value)

    // Codable straight from the tape, with YYModel's leniency.
    let user = try ModelDecoder().decode(User.self, from: data)   // "42" → Int, 1 → Bool, "<null>" → nil, dates by format
    var strict = ModelDecoder(); strict.coercion = .strict        // exact JSON types, like JSONDecoder
    let json = try ModelEncoder().encodeToString(user)            // or encode(_:) → Data, encodeToValue(_:) → JSONValue
    let books = try ModelDecoder().decodeArray(of: Book.self, from: bytes)  // skips elements that are not books
    // snippet.end
    _ = (pretty, text, strict, json, books)
}

func modelUseSnippet(data: Data) throws {
    // snippet.begin model-use
    let book = try ModelDecoder().decode(Book.self, from: data)
    let copy = try book.modelCopy()                   // deep copy; also modelIsEqual, modelHash, modelDescription
    // snippet.end
    _ = copy
}

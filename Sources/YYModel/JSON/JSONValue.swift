/// An untyped JSON value, for reading and building JSON without a model type.
///
/// Integers that fit `Int64` are ``int(_:)``; larger positive ones up to `UInt64.max` are
/// ``uint(_:)``; every other number is ``double(_:)``. Objects are unordered (equality ignores key
/// order); the writer can sort keys for stable output.
///
/// ```swift
/// let value: JSONValue = ["name": "YYKit", "stars": 14000, "tags": ["ios", "swift"]]
/// let text = value.jsonString(pretty: true, sortedKeys: true)
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text.
    public init(parsing text: String, options: JSONParsingOptions = JSONParsingOptions()) throws(JSONError) {
        self = try JSONDocument(parsing: text, options: options).value
    }

    /// Parses UTF-8 JSON.
    public init(parsing bytes: some Collection<UInt8>, options: JSONParsingOptions = JSONParsingOptions()) throws(JSONError) {
        self = try JSONDocument(parsing: bytes, options: options).value
    }

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array, or `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

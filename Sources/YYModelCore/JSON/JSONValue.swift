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

extension JSONValue: Codable {
    /// Reads any JSON value. ``ModelDecoder`` takes it straight from its tape; other decoders go
    /// through their single-value, keyed and unkeyed containers.
    public init(from decoder: any Decoder) throws {
        // From the tape as it is: through the containers, lenient coercions would turn 1 into true.
        if let tape = decoder as? TapeDecoder {
            var index = tape.index
            self = tape.reader.document.value(at: &index)
            return
        }
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() { self = .null; return }
            if let flag = try? container.decode(Bool.self) { self = .bool(flag); return }
            if let number = try? container.decode(Int64.self) { self = .int(number); return }
            if let number = try? container.decode(UInt64.self) { self = .uint(number); return }
            if let number = try? container.decode(Double.self) { self = .double(number); return }
            if let text = try? container.decode(String.self) { self = .string(text); return }
            if let elements = try? container.decode([JSONValue].self) { self = .array(elements); return }
        }
        self = .object(try [String: JSONValue](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let number): try container.encode(number)
        case .uint(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}

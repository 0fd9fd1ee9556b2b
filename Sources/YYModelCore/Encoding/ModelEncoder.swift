public import Foundation

/// Encodes `Encodable` values to JSON, the mirror of ``ModelDecoder``.
///
/// Members are written in the order they were encoded (or sorted with ``sortedKeys``). Dates are
/// written as `yyyy-MM-dd'T'HH:mm:ss[.SSS]Z` in UTC by default (YYModel wrote the device's zone),
/// `Data` as base64, `URL` as its absolute string, doubles in their shortest round-trip form.
///
/// ```swift
/// var encoder = ModelEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// let json = try encoder.encodeToString(user)
/// ```
public struct ModelEncoder: Sendable {
    /// How coding keys become JSON keys.
    public enum KeyEncodingStrategy: Sendable {
        /// Keys as they are.
        case useDefaultKeys
        /// `camelCase` keys become `snake_case` (as Foundation does).
        case convertToSnakeCase
    }

    /// How dates are written.
    public enum DateEncodingStrategy: Sendable {
        /// `yyyy-MM-dd'T'HH:mm:ssZ` in UTC, with `.SSS` when there are milliseconds.
        case yyModel
        /// Seconds since 1970, as a number.
        case secondsSince1970
        /// Milliseconds since 1970, as a number.
        case millisecondsSince1970
        /// Your own text.
        case custom(@Sendable (Date) -> String)
    }

    /// How infinity and NaN are written.
    public enum NonConformingFloatEncodingStrategy: Sendable {
        /// They are errors.
        case `throw`
        /// As these strings.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How keys are written. Default as they are.
    public var keyEncodingStrategy = KeyEncodingStrategy.useDefaultKeys
    /// How dates are written. Default ``DateEncodingStrategy/yyModel``.
    public var dateEncodingStrategy = DateEncodingStrategy.yyModel
    /// How infinity and NaN are written. Default: errors.
    public var nonConformingFloatEncodingStrategy = NonConformingFloatEncodingStrategy.throw
    /// Indent with two spaces, one member per line.
    public var pretty = false
    /// Write object members sorted by key.
    public var sortedKeys = false
    /// The deepest nesting of objects and arrays written. Default 512, what ``ModelDecoder`` and
    /// ``JSONParsingOptions`` read by default. Deeper values are an `EncodingError.invalidValue`:
    /// encoding recurses a level a call, and a reference cycle among classes (a node whose `next`
    /// leads back to itself) recursed until the stack overflowed and the process died.
    public var maximumDepth = 512

    /// Creates an encoder with the default strategies.
    public init() {}

    /// The UTF-8 JSON of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeToBytes(value))
    }

    /// The UTF-8 JSON of `value`, as bytes.
    public func encodeToBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        // @Model types write themselves straight into the output when nothing needs the tree
        // (sorted keys, converted keys, or a modelDidEncode hook).
        if !sortedKeys, keyEncodingStrategy == .useDefaultKeys, let model = value as? any _DirectEncodable {
            var writer = _ModelWriter(options: self)
            try model._encode(to: &writer)
            return writer.output.bytes
        }
        var output = JSONOutput(pretty: pretty)
        try Self.write(try encodeToNode(value), to: &output, sortedKeys: sortedKeys)
        return output.bytes
    }

    /// The JSON text of `value`.
    public func encodeToString<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encodeToBytes(value), as: UTF8.self)
    }

    /// `value` as an untyped ``JSONValue`` (YYModel's "model to JSON object").
    public func encodeToValue<T: Encodable>(_ value: T) throws -> JSONValue {
        try encodeToNode(value).jsonValue
    }

    /// The error for a value nested deeper than ``maximumDepth``.
    static func tooDeep(_ value: Any, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            .init(
                codingPath: codingPath,
                debugDescription:
                    "nested deeper than ModelEncoder.maximumDepth: a reference cycle, or deeper data than the limit allows"))
    }

    func encodeToNode<T: Encodable>(_ value: T) throws -> EncodedNode {
        let encoder = TreeEncoder(options: self, codingPath: [])
        return try encoder.box(value)
    }

    /// Writes the tree. `JSONWriter` has the same walk over a `JSONValue`, and what the two share
    /// (escaping, numbers, layout, containers) is one type, `JSONOutput`. They stay two switches
    /// because one generic walk over both trees copies each node's payload out before writing it,
    /// which is slower on every corpus file (`Benchmarks/README.md`, "Measured design choices").
    static func write(_ node: EncodedNode, to output: inout JSONOutput, sortedKeys: Bool) throws {
        switch node {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .int(let number): output.appendInteger(number)
        case .uint(let number): output.appendInteger(number)
        case .double(let number): try output.appendDouble(number)
        case .string(let text): output.appendString(text)
        case .array(let box):
            try output.writeArray(box.elements) { output, element in try write(element, to: &output, sortedKeys: sortedKeys) }
        case .object(let box):
            let members = sortedKeys ? box.members.sorted { $0.key < $1.key } : box.members
            try output.writeObject(members, key: \.key) { output, member in try write(member.node, to: &output, sortedKeys: sortedKeys) }
        }
    }

    /// Foundation's conversion: `avatarURL` → `avatar_url`, `firstName` → `first_name`.
    static func snakeCase(fromCamelCase key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [String] = []
        var current = ""
        let characters = Array(key)
        for (i, character) in characters.enumerated() {
            let startsWord =
                character.isUppercase && !current.isEmpty
                && (!characters[i - 1].isUppercase || (i + 1 < characters.count && characters[i + 1].isLowercase))
            if startsWord {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        words.append(current)
        return words.map { $0.lowercased() }.joined(separator: "_")
    }
}

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

    func encodeToNode<T: Encodable>(_ value: T) throws -> EncodedNode {
        let encoder = TreeEncoder(options: self, codingPath: [])
        return try encoder.box(value)
    }

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
            let startsWord = character.isUppercase && !current.isEmpty
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

/// What the encoder builds before writing: containers are classes so that nested containers can
/// keep filling them after they were attached.
enum EncodedNode {
    case null, bool(Bool), int(Int64), uint(UInt64), double(Double), string(String)
    case array(ArrayBox), object(ObjectBox)

    final class ArrayBox {
        var elements: [EncodedNode] = []
    }

    /// An object's members in encoding order. Keys are rarely encoded twice, so duplicates are
    /// found by scanning keys of the same length; large objects get a dictionary index.
    final class ObjectBox {
        private(set) var members: [(key: String, node: EncodedNode)] = []
        private var index: [String: Int]?
        private static let indexThreshold = 32

        /// Sets a member; a new key goes last, a repeated key keeps its place.
        func set(_ node: EncodedNode, for key: String) {
            if let position = position(of: key) {
                members[position].node = node
            } else {
                members.append((key, node))
                index?[key] = members.count - 1
            }
        }

        private func position(of key: String) -> Int? {
            if let index { return index[key] }
            if members.count >= Self.indexThreshold {
                index = Dictionary(members.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first })
                return index![key]
            }
            let length = key.utf8.count
            return members.firstIndex { $0.key.utf8.count == length && $0.key == key }
        }
    }

    var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .uint(let number): .uint(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .array(let box): .array(box.elements.map(\.jsonValue))
        case .object(let box): .object(Dictionary(box.members.map { ($0.key, $0.node.jsonValue) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

/// The `Encoder` that fills an ``EncodedNode``.
final class TreeEncoder: Encoder {
    let options: ModelEncoder
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded here; a container once one is asked for.
    var node: EncodedNode? {
        didSet { if let node { attach?(node) } }
    }
    /// For super-encoders: puts what this encoder produces into the parent's slot.
    private let attach: ((EncodedNode) -> Void)?

    init(options: ModelEncoder, codingPath: [any CodingKey], attach: ((EncodedNode) -> Void)? = nil) {
        self.options = options
        self.codingPath = codingPath
        self.attach = attach
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: EncodedNode.ObjectBox
        if case .object(let existing) = node { box = existing } else {
            box = EncodedNode.ObjectBox()
            node = .object(box)
        }
        return KeyedEncodingContainer(ObjectEncodingContainer<Key>(encoder: self, box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: EncodedNode.ArrayBox
        if case .array(let existing) = node { box = existing } else {
            box = EncodedNode.ArrayBox()
            node = .array(box)
        }
        return ArrayEncodingContainer(encoder: self, box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueEncodingContainer(encoder: self)
    }

    /// Encodes a value into a node, with the special forms of Foundation types.
    func box<T: Encodable>(_ value: T, at path: [any CodingKey]? = nil) throws -> EncodedNode {
        let path = path ?? codingPath
        switch value {
        case let date as Date: return box(date)
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let decimal as Decimal:
            return (try? JSONValue(parsing: decimal.description)).map { EncodedNode($0) } ?? .string(decimal.description)
        case let json as JSONValue: return EncodedNode(json)
        case let number as Double: return try box(number, path: path)
        case let number as Float: return try box(Double(number), path: path)
        default:
            let encoder = TreeEncoder(options: options, codingPath: path)
            try value.encode(to: encoder)
            return encoder.node ?? .object(EncodedNode.ObjectBox())
        }
    }

    func box(_ date: Date) -> EncodedNode {
        switch options.dateEncodingStrategy {
        case .yyModel: .string(ModelDateParser.string(from: date))
        case .secondsSince1970: .double(date.timeIntervalSince1970)
        case .millisecondsSince1970: .double((date.timeIntervalSince1970 * 1000).rounded())
        case .custom(let format): .string(format(date))
        }
    }

    func box(_ number: Double, path: [any CodingKey]) throws -> EncodedNode {
        if number.isFinite { return .double(number) }
        guard case .convertToString(let positive, let negative, let nan) = options.nonConformingFloatEncodingStrategy else {
            throw EncodingError.invalidValue(number, .init(codingPath: path, debugDescription: "Unable to encode \(number) directly in JSON."))
        }
        return .string(number.isNaN ? nan : number > 0 ? positive : negative)
    }

    func key(_ key: some CodingKey) -> String {
        options.keyEncodingStrategy == .convertToSnakeCase ? ModelEncoder.snakeCase(fromCamelCase: key.stringValue) : key.stringValue
    }
}

extension EncodedNode {
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .uint(let number): self = .uint(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements):
            let box = ArrayBox()
            box.elements = elements.map { EncodedNode($0) }
            self = .array(box)
        case .object(let members):
            let box = ObjectBox()
            for key in members.keys.sorted() { box.set(EncodedNode(members[key]!), for: key) }
            self = .object(box)
        }
    }
}

struct ObjectEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let box: EncodedNode.ObjectBox
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ node: EncodedNode, _ key: Key) { box.set(node, for: encoder.key(key)) }

    mutating func encodeNil(forKey key: Key) { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try encoder.box(value, path: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try encoder.box(Double(value), path: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { set(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) { set(.uint(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { set(value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { set(try encoder.box(value, at: codingPath + [key]), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedNode.ObjectBox()
        set(.object(nested), key)
        let child = TreeEncoder(options: encoder.options, codingPath: codingPath + [key])
        return KeyedEncodingContainer(ObjectEncodingContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodedNode.ArrayBox()
        set(.array(nested), key)
        return ArrayEncodingContainer(encoder: TreeEncoder(options: encoder.options, codingPath: codingPath + [key]), box: nested)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: encoder.key(key)) }

    private func superEncoder(named name: String) -> any Encoder {
        let box = self.box
        box.set(.object(EncodedNode.ObjectBox()), for: name)  // an empty object unless the child encodes something
        return TreeEncoder(options: encoder.options, codingPath: codingPath) { box.set($0, for: name) }
    }
}

struct ArrayEncodingContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let box: EncodedNode.ArrayBox
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { box.elements.count }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    mutating func encodeNil() { box.elements.append(.null) }
    mutating func encode(_ value: Bool) { box.elements.append(.bool(value)) }
    mutating func encode(_ value: String) { box.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { box.elements.append(try encoder.box(value, path: nextPath)) }
    mutating func encode(_ value: Float) throws { box.elements.append(try encoder.box(Double(value), path: nextPath)) }
    mutating func encode(_ value: Int) { box.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) { box.elements.append(.int(value)) }
    mutating func encode(_ value: UInt64) { box.elements.append(value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { box.elements.append(try encoder.box(value, at: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedNode.ObjectBox()
        let child = TreeEncoder(options: encoder.options, codingPath: nextPath)
        box.elements.append(.object(nested))
        return KeyedEncodingContainer(ObjectEncodingContainer<NestedKey>(encoder: child, box: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedNode.ArrayBox()
        let child = TreeEncoder(options: encoder.options, codingPath: nextPath)
        box.elements.append(.array(nested))
        return ArrayEncodingContainer(encoder: child, box: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let box = self.box
        let slot = box.elements.count
        box.elements.append(.object(EncodedNode.ObjectBox()))
        return TreeEncoder(options: encoder.options, codingPath: nextPath) { box.elements[slot] = $0 }
    }
}

struct ValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.node = .null }
    mutating func encode(_ value: Bool) { encoder.node = .bool(value) }
    mutating func encode(_ value: String) { encoder.node = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.node = try encoder.box(value, path: codingPath) }
    mutating func encode(_ value: Float) throws { encoder.node = try encoder.box(Double(value), path: codingPath) }
    mutating func encode(_ value: Int) { encoder.node = .int(Int64(value)) }
    mutating func encode(_ value: Int64) { encoder.node = .int(value) }
    mutating func encode(_ value: UInt64) { encoder.node = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.node = try encoder.box(value, at: codingPath) }
}

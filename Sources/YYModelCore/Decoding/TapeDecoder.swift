import Foundation

/// The `Decoder` over one value of a JSON tape.
///
/// Containers read members in place: an object's members are found by comparing key bytes in
/// the input (``TapeMemberLookup``); no dictionary is built, nor any string for keys without
/// escapes.
struct TapeDecoder: Decoder {
    let reader: TapeReader
    let index: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(reader: TapeReader, index: Int, codingPath: [any CodingKey]) {
        self.reader = reader
        self.index = index
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard reader.view.tag(at: index) == .objectStart else {
            if reader.lenient && reader.isNull(at: index) {
                throw DecodingError.valueNotFound(
                    [String: Any].self, .init(codingPath: codingPath, debugDescription: "Expected a dictionary but found null."))
            }
            throw reader.mismatch([String: Any].self, at: index, path: codingPath)
        }
        return KeyedDecodingContainer(ObjectContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard reader.view.tag(at: index) == .arrayStart else {
            throw reader.mismatch([Any].self, at: index, path: codingPath)
        }
        return ArrayContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueContainer(decoder: self)
    }
}

/// An index-based coding key for array elements in coding paths.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The members of a JSON object, looked up by key.
///
/// A class, so that lookups (non-mutating in the protocol) can move the cursor of its
/// ``TapeMemberLookup``: no table of the members is built, except of converted keys under
/// `convertFromSnakeCase`.
final class ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    private var members: TapeMemberLookup
    /// Converted key → value index, under `convertFromSnakeCase` only (the last of a repeated key).
    private let convertedKeys: [String: Int]?

    var codingPath: [any CodingKey] { decoder.codingPath }

    init(decoder: TapeDecoder) {
        self.decoder = decoder
        let view = decoder.reader.view
        members = TapeMemberLookup(view: view, start: decoder.index)
        if decoder.reader.options.keyDecodingStrategy == .convertFromSnakeCase {
            var converted: [String: Int] = [:]
            for member in view.members(ofObjectAt: decoder.index) {
                converted[Self.camelCase(fromSnakeCase: view.string(at: member.key))] = member.value
            }
            convertedKeys = converted
        } else {
            convertedKeys = nil
        }
    }

    /// Foundation's conversion: `first_name` → `firstName`; leading and trailing underscores kept.
    static func camelCase(fromSnakeCase key: String) -> String {
        guard key.contains("_") else { return key }
        let leading = key.prefix { $0 == "_" }
        let trailing = key.reversed().prefix { $0 == "_" }
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        let words = core.split(separator: "_")
        guard let first = words.first else { return key }
        let rest = words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        return String(leading) + first.lowercased() + rest.joined() + String(trailing)
    }

    /// The tape position of the value for `key`, or `nil`.
    private func valueIndex(for key: Key) -> Int? {
        if let convertedKeys { return convertedKeys[key.stringValue] }
        return members.valueIndex(of: key.stringValue)
    }

    private func require(_ key: Key) throws -> Int {
        guard let index = valueIndex(for: key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return index
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    /// Reads a scalar member with the container's path; the key joins the path only on failure, so
    /// that no array is built per field.
    private func scalar<T>(_ key: Key, _ read: (TapeReader, Int, [any CodingKey]) throws -> T) throws -> T {
        let index = try require(key)
        do {
            return try read(decoder.reader, index, codingPath)
        } catch let error as DecodingError {
            throw error.addingKey(key, below: codingPath)
        }
    }

    var allKeys: [Key] {
        if let convertedKeys { return convertedKeys.keys.compactMap(Key.init(stringValue:)) }
        let view = decoder.reader.view
        return view.members(ofObjectAt: decoder.index).compactMap { Key(stringValue: view.string(at: $0.key)) }
    }

    func contains(_ key: Key) -> Bool { valueIndex(for: key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.reader.isNull(at: try require(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key) { try $0.decodeBool(at: $1, path: $2) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key) { try $0.decodeString(at: $1, path: $2) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key) { try $0.decodeFloat(type, at: $1, path: $2) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key) { try $0.decodeFloat(type, at: $1, path: $2) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(key) { try $0.decodeInteger(type, at: $1, path: $2) } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.reader.decode(type, at: require(key), path: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TapeDecoder(reader: decoder.reader, index: require(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TapeDecoder(reader: decoder.reader, index: require(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TapeDecoder(reader: decoder.reader, index: decoder.index, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TapeDecoder(reader: decoder.reader, index: try require(key), codingPath: path(key))
    }
}

/// The elements of a JSON array, read in order.
struct ArrayContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    private var cursor: Int
    private let end: Int
    let count: Int?
    private(set) var currentIndex = 0

    init(decoder: TapeDecoder) {
        self.decoder = decoder
        cursor = decoder.index + 1
        end = Int(decoder.reader.view.payload(at: decoder.index))
        count = decoder.reader.view.count(ofContainerAt: decoder.index)
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { cursor >= end }

    private var elementPath: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    /// The position of the next element, or an error at the end; `advance` moves past it.
    private mutating func next<T>(_ type: T.Type, _ read: (TapeReader, Int, [any CodingKey]) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: elementPath, debugDescription: "Unkeyed container is at end."))
        }
        let value = try read(decoder.reader, cursor, elementPath)
        cursor = decoder.reader.view.indexAfterValue(at: cursor)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if decoder.reader.isNull(at: cursor) {
            cursor = decoder.reader.view.indexAfterValue(at: cursor)
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decodeBool(at: $1, path: $2) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decodeString(at: $1, path: $2) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decodeFloat(type, at: $1, path: $2) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decodeFloat(type, at: $1, path: $2) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decodeInteger(type, at: $1, path: $2) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type) { try $0.decode(type, at: $1, path: $2) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) {
            try TapeDecoder(reader: $0, index: $1, codingPath: $2).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) {
            try TapeDecoder(reader: $0, index: $1, codingPath: $2).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { TapeDecoder(reader: $0, index: $1, codingPath: $2) }
    }
}

/// A single value.
struct ValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    private var reader: TapeReader { decoder.reader }
    private var index: Int { decoder.index }

    func decodeNil() -> Bool { reader.isNull(at: index) }
    func decode(_ type: Bool.Type) throws -> Bool { try reader.decodeBool(at: index, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try reader.decodeString(at: index, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try reader.decodeFloat(type, at: index, path: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try reader.decodeFloat(type, at: index, path: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.decodeInteger(type, at: index, path: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try reader.decode(type, at: index, path: codingPath) }
}

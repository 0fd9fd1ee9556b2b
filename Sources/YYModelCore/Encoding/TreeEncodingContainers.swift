import Foundation

// The containers `TreeEncoder` hands out: each fills an `EncodedNode` box.

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

/// Types `TapeReader` reads without Codable's containers: scalars, arrays of anything decodable
/// and `[String: Value]` (elements and values go through the reader again, so arrays of models and
/// nested arrays of numbers stay on the fast path).
protocol TapeDirectDecodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> Self
}

extension Int: TapeDirectDecodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> Int {
        try reader.decodeInteger(Int.self, at: index, path: path)
    }
}

extension Int64: TapeDirectDecodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> Int64 {
        try reader.decodeInteger(Int64.self, at: index, path: path)
    }
}

extension UInt64: TapeDirectDecodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> UInt64 {
        try reader.decodeInteger(UInt64.self, at: index, path: path)
    }
}

extension Double: TapeDirectDecodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> Double {
        try reader.decodeFloat(Double.self, at: index, path: path)
    }
}

extension Bool: TapeDirectDecodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> Bool {
        try reader.decodeBool(at: index, path: path)
    }
}

extension String: TapeDirectDecodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> String {
        try reader.decodeString(at: index, path: path)
    }
}

extension Array: TapeDirectDecodable where Element: Decodable {
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> [Element] {
        let view = reader.view
        guard view.tag(at: index) == .arrayStart else { throw reader.mismatch([Element].self, at: index, path: path) }
        // Scalars fail right at the element, so its index can join the path afterwards (no array
        // per element); they are read in loops typed at compile time. `unsafeBitCast` only
        // renames the array's type: each branch runs only when `Element` is exactly that type.
        if Element.self == Double.self { return unsafeBitCast(try doubles(reader, index, path), to: [Element].self) }
        if Element.self == [Double].self {
            // GeoJSON-style coordinate lists: concrete all the way down, no generic dispatch.
            let rows = try reader.elements(ofArrayAt: index, path: path, nested: true) { try [Double].doubles(reader, $0, path) }
            return unsafeBitCast(rows, to: [Element].self)
        }
        if Element.self == Int.self {
            return unsafeBitCast(
                try reader.elements(ofArrayAt: index, path: path) { try reader.decodeInteger(Int.self, at: $0, path: path) }, to: [Element].self)
        }
        if Element.self == String.self {
            return unsafeBitCast(
                try reader.elements(ofArrayAt: index, path: path) { try reader.decodeString(at: $0, path: path) }, to: [Element].self)
        }
        if Element.self == Bool.self {
            return unsafeBitCast(try reader.elements(ofArrayAt: index, path: path) { try reader.decodeBool(at: $0, path: path) }, to: [Element].self)
        }
        if Element.self == Int64.self {
            return unsafeBitCast(
                try reader.elements(ofArrayAt: index, path: path) { try reader.decodeInteger(Int64.self, at: $0, path: path) }, to: [Element].self)
        }
        // Models and nested arrays get the array's own path (an error gets the element's index
        // inserted on its way out), with the way to read them chosen once; other Decodable types
        // see the full path in their decoder, as with JSONDecoder.
        if let model = Element.self as? any _TapeDecodable.Type {
            return try reader.elements(ofArrayAt: index, path: path, nested: true) {
                try reader.decodeModel(model, as: Element.self, at: $0, path: path)
            }
        }
        if let direct = Element.self as? any TapeDirectDecodable.Type {
            return try reader.elements(ofArrayAt: index, path: path, nested: true) { try direct.decode(from: reader, at: $0, path: path) as! Element }
        }
        var elements: [Element] = []
        elements.reserveCapacity(view.count(ofContainerAt: index))
        let end = Int(view.payload(at: index))
        var cursor = index + 1
        while cursor < end {
            elements.append(try reader.decode(Element.self, at: cursor, path: path + [IndexKey(elements.count)]))
            cursor = view.indexAfterValue(at: cursor)
        }
        return elements
    }

    /// The numbers of the array at `index` (not generic: no type metadata to look up per call).
    private static func doubles(_ reader: TapeReader, _ index: Int, _ path: [any CodingKey]) throws -> [Double] {
        guard reader.view.tag(at: index) == .arrayStart else { throw reader.mismatch([Double].self, at: index, path: path) }
        return try reader.elements(ofArrayAt: index, path: path) { try reader.decodeFloat(Double.self, at: $0, path: path) }
    }
}

extension Dictionary: TapeDirectDecodable where Key == String, Value: Decodable {
    /// Objects as `[String: Value]` straight from the tape (citm_catalog.json's name tables).
    /// Under `convertFromSnakeCase` keys go through the Codable container instead, which
    /// converts them as `JSONDecoder` does.
    static func decode(from reader: TapeReader, at index: Int, path: [any CodingKey]) throws -> [String: Value] {
        let view = reader.view
        guard reader.options.keyDecodingStrategy == .useDefaultKeys, view.tag(at: index) == .objectStart else {
            return try Self(from: TapeDecoder(reader: reader, index: index, codingPath: path))
        }
        // The way to read a value is chosen once, not per member. Strings, models and directly
        // read types get the object's own path (an error gets the key inserted on its way out);
        // other Decodable types see the full path in their decoder, as with JSONDecoder.
        if Value.self == String.self {
            return try members(reader, index, path) { valueIndex, _ in
                unsafeBitCast(try reader.decodeString(at: valueIndex, path: path), to: Value.self)
            }
        }
        if let model = Value.self as? any _TapeDecodable.Type {
            return try members(reader, index, path) { valueIndex, _ in try reader.decodeModel(model, as: Value.self, at: valueIndex, path: path) }
        }
        if let direct = Value.self as? any TapeDirectDecodable.Type {
            return try members(reader, index, path) { valueIndex, _ in try direct.decode(from: reader, at: valueIndex, path: path) as! Value }
        }
        return try members(reader, index, path, pathFree: false) { valueIndex, key in
            try reader.decode(Value.self, at: valueIndex, path: path + [_ModelKey(key)])
        }
    }

    /// The members of the object at `index`, each value read by `read` (given its tape index and
    /// key). With `pathFree`, values are read with `path` alone and a failure gets the key
    /// inserted right below `path`.
    private static func members(
        _ reader: TapeReader, _ index: Int, _ path: [any CodingKey], pathFree: Bool = true,
        _ read: (Int, String) throws -> Value
    ) throws -> [String: Value] {
        let view = reader.view
        var result: [String: Value] = [:]
        result.reserveCapacity(view.count(ofContainerAt: index))
        for (keyIndex, valueIndex) in view.members(ofObjectAt: index) {
            let key = view.string(at: keyIndex)
            do {
                result[key] = try read(valueIndex, key)
            } catch let error as DecodingError where pathFree {
                throw error.addingKey(_ModelKey(key), below: path, evenIfDeeper: true)
            }
        }
        return result
    }
}

/// Types `TapeReader` reads without Codable's containers: scalars, and arrays of anything
/// decodable (elements go through the reader again, so arrays of models and nested arrays of
/// numbers stay on the fast path).
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
        let tape = reader.tape
        guard tape.tag(at: index) == .arrayStart else { throw reader.mismatch([Element].self, at: index, path: path) }
        var elements: [Element] = []
        elements.reserveCapacity(tape.count(ofContainerAt: index))
        let end = Int(tape.payload(at: index))
        var cursor = index + 1
        // Scalars fail right at the element, so its index can join the path afterwards (no array
        // per element); anything nested needs the index in its path from the start.
        let scalars = Element.self == Double.self || Element.self == Int.self || Element.self == String.self
            || Element.self == Bool.self || Element.self == Int64.self || Element.self == UInt64.self
        while cursor < end {
            if scalars {
                do {
                    elements.append(try reader.decode(Element.self, at: cursor, path: path))
                } catch let error as DecodingError {
                    throw error.addingKey(IndexKey(elements.count), below: path)
                }
            } else {
                elements.append(try reader.decode(Element.self, at: cursor, path: path + [IndexKey(elements.count)]))
            }
            cursor = tape.indexAfterValue(at: cursor)
        }
        return elements
    }
}

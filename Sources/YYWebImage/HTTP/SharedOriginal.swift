import Foundation

/// An original as the shared tier stores it: its HTTP record (validators, freshness) and its
/// bytes in one value, so that a machine that reads it knows whether it is fresh and how to
/// revalidate it.
///
/// Layout: the record's JSON length (4 bytes, big-endian), the record's JSON, the image bytes.
enum SharedOriginal {
    static func encode(_ data: Data, record: StoredResponse) throws -> Data {
        let json = try JSONEncoder().encode(record)
        var value = Data(capacity: 4 + json.count + data.count)
        withUnsafeBytes(of: UInt32(json.count).bigEndian) { value.append(contentsOf: $0) }
        value.append(json)
        value.append(data)
        return value
    }

    /// The bytes and record, or `nil` for a value that is not one (another program's, a cut one).
    static func decode(_ value: Data) -> (data: Data, record: StoredResponse)? {
        guard value.count >= 4 else { return nil }
        let length = value.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let start = value.startIndex + 4
        guard length <= value.count - 4,
            let record = try? JSONDecoder().decode(StoredResponse.self, from: value[start..<(start + length)])
        else { return nil }
        return (Data(value[(start + length)...]), record)
    }
}

public import Foundation

/// Turns `Codable` values into bytes for the disk and back.
///
/// `Data` values never go through a coder: caches store them as they are.
public protocol CacheValueCoder: Sendable {
    /// The bytes that represent `value`.
    func encode<T: Encodable>(_ value: T) throws -> Data
    /// The value that `data` represents.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

/// The default coder: JSON through Foundation's `JSONEncoder` and `JSONDecoder`.
public struct JSONCacheValueCoder: CacheValueCoder {
    /// Creates the coder.
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONEncoder().encode(value)
    }

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}

/// A compact binary coder: Foundation's binary property lists.
public struct PropertyListCacheValueCoder: CacheValueCoder {
    /// Creates the coder.
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(value)
    }

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try PropertyListDecoder().decode(type, from: data)
    }
}

extension CacheValueCoder {
    /// Encodes `value`, passing `Data` through untouched; errors become ``DiskCacheError/coding(key:message:)``.
    func encodeForCache<T: Encodable>(_ value: T, key: String) throws(DiskCacheError) -> Data {
        if let data = value as? Data { return data }
        do { return try encode(value) } catch { throw .coding(key: key, message: "\(error)") }
    }

    /// Decodes `data`, passing `Data` through untouched; errors become ``DiskCacheError/coding(key:message:)``.
    func decodeFromCache<T: Decodable>(_ type: T.Type, from data: Data, key: String) throws(DiskCacheError) -> T {
        if let data = data as? T { return data }
        do { return try decode(type, from: data) } catch { throw .coding(key: key, message: "\(error)") }
    }
}

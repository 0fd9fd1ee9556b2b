import Foundation

/// YYModel's untyped entry points: models from Foundation objects, and arrays or dictionaries of
/// models that skip what is not a model (`yy_modelArrayWithClass:json:` and friends).
extension ModelDecoder {
    /// Decodes a `T` from a Foundation JSON object (`[String: Any]`, `[Any]`, `NSNumber`, …), such as
    /// `JSONSerialization` returns.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when `object` is not a valid JSON object.
    public func decode<T: Decodable>(_ type: T.Type, fromJSONObject object: Any) throws -> T {
        guard JSONSerialization.isValidJSONObject(object) || object is NSNumber || object is String || object is NSNull else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Not a JSON object: \(Swift.type(of: object))"))
        }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
        return try decode(type, from: data)
    }

    /// The elements of a JSON array that decode as `T`; the others (not objects, or rejected) are
    /// skipped, as YYModel's `yy_modelArrayWithClass:json:` did.
    ///
    /// - Throws: only when `bytes` is not JSON or not an array.
    public func decodeArray<T: Decodable>(of type: T.Type, from bytes: some Collection<UInt8>) throws -> [T] {
        try decode([Lossy<T>].self, from: bytes).compactMap(\.value)
    }

    /// The members of a JSON object whose values decode as `T`; the others are skipped, as
    /// YYModel's `yy_modelDictionaryWithClass:json:` did.
    public func decodeDictionary<T: Decodable>(of type: T.Type, from bytes: some Collection<UInt8>) throws -> [String: T] {
        try decode([String: Lossy<T>].self, from: bytes).compactMapValues(\.value)
    }
}

/// A value that is `nil` when it does not decode.
private struct Lossy<T: Decodable>: Decodable {
    let value: T?
    init(from decoder: any Decoder) throws {
        value = try? T(from: decoder)
    }
}

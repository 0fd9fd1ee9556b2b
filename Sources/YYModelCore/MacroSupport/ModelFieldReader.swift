import Foundation

/// What `@Model`'s generated `init(from:)` reads properties with: fallback keys, key paths and
/// per-field coercion, over any `Decoder`.
///
/// Not meant to be used by hand; the macro writes the calls.
@_documentation(visibility: internal)
public struct _ModelFieldReader {
    private let container: KeyedDecodingContainer<_ModelKey>

    /// Opens the decoder's keyed container.
    public init(_ decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: _ModelKey.self)
    }

    /// Reads from `object` (what `modelWillDecode` returned) with the settings of `decoder` when it is
    /// a ``ModelDecoder``'s, else with the defaults.
    public init(_ object: JSONValue, like decoder: any Decoder) throws {
        let options = (decoder as? TapeDecoder)?.reader.options ?? ModelDecoder()
        let bytes: [UInt8]
        do {
            bytes = try JSONWriter().bytes(for: object)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "modelWillDecode returned \(error)"))
        }
        let document = try JSONDocument(parsing: bytes)
        let reader = TapeReader(document: document, options: options)
        try self.init(TapeDecoder(reader: reader, index: 0, codingPath: decoder.codingPath))
    }

    /// The value at the first of `paths` that is present and not null, or `nil` when none is.
    ///
    /// - Parameters:
    ///   - paths: each a key, or a key path split at `.` (`["ext", "desc"]`); tried in order.
    ///   - coercion: overrides the decoder's coercion for this field (``ModelDecoder`` only).
    ///   - dates: overrides the date strategy for this field.
    public func decode<T: Decodable>(
        _ type: T.Type, paths: [[String]], coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T? {
        for path in paths {
            guard let (holder, key) = try locate(path) else { continue }
            guard coercion != nil || dates != nil else { return try holder.decode(type, forKey: key) }
            let valueDecoder = try holder.superDecoder(forKey: key)
            if let tape = valueDecoder as? TapeDecoder {
                return try tape.reader.overriding(coercion: coercion, dates: dates).decode(type, at: tape.index, path: tape.codingPath)
            }
            // Another decoder: its own coercion applies; a date override reads the value and converts it.
            guard let dates, T.self == Date.self else { return try holder.decode(type, forKey: key) }
            var decoder = ModelDecoder()
            decoder.dateDecodingStrategy = dates
            return try decoder.decode(type, from: try JSONValue(from: valueDecoder))
        }
        return nil
    }

    /// Like ``decode(_:paths:coercion:)``, but a missing value is a `keyNotFound` error.
    public func require<T: Decodable>(
        _ type: T.Type, paths: [[String]], coercion: ModelDecoder.Coercion? = nil,
        dates: ModelDecoder.DateDecodingStrategy? = nil
    ) throws -> T {
        if let value = try decode(type, paths: paths, coercion: coercion, dates: dates) { return value }
        let key = _ModelKey(paths.first?.joined(separator: ".") ?? "")
        throw DecodingError.keyNotFound(
            key,
            .init(
                codingPath: container.codingPath,
                debugDescription: "No value for \(paths.map { $0.joined(separator: ".") }.joined(separator: " or "))."))
    }

    /// The container holding the last component of `path` and that key, when every step is
    /// present, not null, and (before the last) an object.
    private func locate(_ path: [String]) throws -> (KeyedDecodingContainer<_ModelKey>, _ModelKey)? {
        guard let last = path.last else { return nil }
        var holder = container
        for component in path.dropLast() {
            let key = _ModelKey(component)
            guard holder.contains(key), try !holder.decodeNil(forKey: key),
                let nested = try? holder.nestedContainer(keyedBy: _ModelKey.self, forKey: key)
            else { return nil }
            holder = nested
        }
        let key = _ModelKey(last)
        guard holder.contains(key), try !holder.decodeNil(forKey: key) else { return nil }
        return (holder, key)
    }
}

public import Foundation

/// Decodes `Decodable` types straight from YYModel's JSON tape, with YYModel's leniency.
///
/// ```swift
/// let decoder = ModelDecoder()                     // lenient, like YYModel
/// let user = try decoder.decode(User.self, from: data)
///
/// var strict = ModelDecoder()
/// strict.coercion = .strict                        // exact JSON types only, like JSONDecoder
/// ```
///
/// Lenient coercions (``Coercion/lenient``, the default), from YYModel's table:
/// - numbers from numeric strings (`"42"`, `"-3.2"`), from `true`/`false` (1/0), and from the
///   words `"true" "yes" "false" "no"` in any of YYModel's spellings; doubles truncate to integers;
/// - `Bool` from numbers (non-zero is true), numeric strings and the same words;
/// - `String` from numbers and booleans;
/// - `nil` for optionals from JSON `null` and from the strings `"null" "nil" "<null>" "(null)"` and
///   their capitalised forms; non-optional numbers and `Bool` take 0 / `false` for them;
/// - `URL` from a string trimmed of white space, with spaces inside percent-encoded.
///
/// Unlike YYModel, text that is not a number (`"abc"`, `"12abc"`) is a `DecodingError`, never 0.
/// Errors are `DecodingError`s whose context carries the coding path.
public struct ModelDecoder: Sendable {
    /// How JSON keys are matched to coding keys.
    public enum KeyDecodingStrategy: Sendable {
        /// Keys as they are.
        case useDefaultKeys
        /// `snake_case` JSON keys become `camelCase` before matching (as Foundation does).
        case convertFromSnakeCase
    }

    /// How strictly JSON types must match the requested type.
    public enum Coercion: Sendable {
        /// YYModel's coercions (see the type's documentation).
        case lenient
        /// JSON types must match (an integral double such as `1.0` still decodes as an integer).
        case strict
    }

    /// How dates are read.
    public enum DateDecodingStrategy: Sendable {
        /// YYModel's formats (ISO 8601 family with any fraction, `EEE MMM dd HH:mm:ss Z yyyy`),
        /// and numbers as seconds since 1970 (values above 10^11 as milliseconds).
        case yyModel
        /// A number of seconds since 1970.
        case secondsSince1970
        /// A number of milliseconds since 1970.
        case millisecondsSince1970
        /// Your own parser for date strings; `nil` is a decoding error.
        case custom(@Sendable (String) -> Date?)
    }

    /// How `Data` is read.
    public enum DataDecodingStrategy: Sendable {
        /// A base64 string.
        case base64
    }

    /// How the non-JSON numbers infinity and NaN are read.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// They are errors.
        case `throw`
        /// These strings stand for them.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How JSON keys are matched. Default ``KeyDecodingStrategy/useDefaultKeys``.
    public var keyDecodingStrategy = KeyDecodingStrategy.useDefaultKeys
    /// Lenient (YYModel) or strict. Default ``Coercion/lenient``.
    public var coercion = Coercion.lenient
    /// How dates are read. Default ``DateDecodingStrategy/yyModel``.
    public var dateDecodingStrategy = DateDecodingStrategy.yyModel
    /// How `Data` is read. Default base64.
    public var dataDecodingStrategy = DataDecodingStrategy.base64
    /// How infinity and NaN are read. Default: errors.
    public var nonConformingFloatDecodingStrategy = NonConformingFloatDecodingStrategy.throw
    /// Limits for the parser.
    public var parsingOptions = JSONParsingOptions()

    /// Creates a lenient decoder with the default strategies.
    public init() {}

    /// Decodes a `T` from UTF-8 JSON.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes, options: parsingOptions)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The given data was not valid JSON: \(error)", underlyingError: error))
        }
        return try decode(type, from: document)
    }

    /// Decodes a `T` from JSON text.
    public func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try decode(type, from: Array(text.utf8))
    }

    /// Decodes a `T` from a parsed document.
    public func decode<T: Decodable>(_ type: T.Type, from document: JSONDocument) throws -> T {
        try TapeReader(document: document, options: self).decode(type, at: 0, path: [])
    }

    /// Decodes a `T` from an untyped value (YYModel's "model from dictionary").
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        let bytes: [UInt8]
        do {
            bytes = try JSONWriter().bytes(for: value)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(error)", underlyingError: error))
        }
        return try decode(type, from: bytes)
    }
}

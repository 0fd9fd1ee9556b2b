import Foundation

/// Reads values at tape positions: the type checks and coercions shared by every container.
@usableFromInline
final class TapeReader {
    /// The document read; held so that `view` stays valid.
    let document: JSONDocument
    /// What every read goes through: copying it retains nothing.
    let view: TapeView
    let options: ModelDecoder
    let lenient: Bool

    init(document: JSONDocument, options: ModelDecoder) {
        self.document = document
        // The view outlives `withView`'s call: its pointers lead into the tape's storage and the
        // input array of `document`, which this reader holds and nobody mutates, so they stay
        // where they are for as long as the reader exists.
        view = document.withView { $0 }
        self.options = options
        lenient = options.coercion == .lenient
    }

    /// This reader, or one over the same document with `coercion` and `dates` in place of its own.
    func overriding(coercion: ModelDecoder.Coercion?, dates: ModelDecoder.DateDecodingStrategy?) -> TapeReader {
        guard coercion != nil || dates != nil else { return self }
        var options = self.options
        if let coercion { options.coercion = coercion }
        if let dates { options.dateDecodingStrategy = dates }
        return TapeReader(document: document, options: options)
    }

    /// Strings that YYModel reads as "no value".
    static let nullWords: Set<String> = [
        "NIL", "Nil", "nil", "NULL", "Null", "null", "(NULL)", "(Null)", "(null)",
        "<NULL>", "<Null>", "<null>",
    ]
    static let trueWords: Set<String> = ["TRUE", "True", "true", "YES", "Yes", "yes"]
    static let falseWords: Set<String> = ["FALSE", "False", "false", "NO", "No", "no"]

    // MARK: Dispatch

    @usableFromInline
    func decode<T: Decodable>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
        // @Model types: straight from the tape.
        if let model = T.self as? any _TapeDecodable.Type, view.tag(at: index) == .objectStart {
            return try decodeModel(model, as: T.self, at: index, path: path)
        }
        // Scalars and arrays: no containers.
        if let direct = T.self as? any TapeDirectDecodable.Type {
            return try direct.decode(from: self, at: index, path: path) as! T
        }
        if T.self == JSONValue.self {
            var cursor = index
            return document.value(at: &cursor) as! T
        }
        if T.self == Date.self { return try decodeDate(at: index, path: path) as! T }
        if T.self == Data.self { return try decodeData(at: index, path: path) as! T }
        if T.self == URL.self { return try decodeURL(at: index, path: path) as! T }
        if T.self == Decimal.self { return try decodeDecimal(at: index, path: path) as! T }
        return try T(from: TapeDecoder(reader: self, index: index, codingPath: path))
    }

    // MARK: Null

    func isNull(at index: Int) -> Bool {
        switch view.tag(at: index) {
        case .null: return true
        case .string:
            // YYModel's null words are 3 to 6 ASCII bytes: compare bytes, build no String.
            guard lenient else { return false }
            let raw = view.rawBytes(ofStringAt: index)
            guard (3...6).contains(raw.count) else { return false }
            return Self.nullWordBytes.contains { $0.elementsEqual(raw) }
        case .escapedString:
            // Escaped, a null word takes at most 6 escapes of 6 bytes: longer strings are not
            // unescaped just to be told apart.
            return lenient && view[index + 1] <= 36 && Self.nullWords.contains(view.string(at: index))
        default: return false
        }
    }

    static let nullWordBytes: [[UInt8]] = nullWords.map { Array($0.utf8) }

    // MARK: Scalars

    func decodeBool(at index: Int, path: [any CodingKey]) throws -> Bool {
        switch view.tag(at: index) {
        case .true: return true
        case .false: return false
        default: break
        }
        guard lenient else { throw mismatch(Bool.self, at: index, path: path) }
        if isNull(at: index) { return false }
        switch view.tag(at: index) {
        case .int64: return view[index + 1] != 0
        case .uint64: return view[index + 1] != 0
        case .double: return Double(bitPattern: view[index + 1]) != 0
        case .string, .escapedString:
            let text = view.string(at: index).trimmingCharacters(in: .whitespacesAndNewlines)
            if Self.trueWords.contains(text) { return true }
            if Self.falseWords.contains(text) { return false }
            if let number = Self.number(from: text) { return number != 0 }
        default: break
        }
        throw mismatch(Bool.self, at: index, path: path)
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
        switch view.tag(at: index) {
        case .int64: return try fit(Int64(bitPattern: view[index + 1]), type, path: path)
        case .uint64: return try fit(view[index + 1], type, path: path)
        case .double:
            let value = Double(bitPattern: view[index + 1])
            if !lenient && value.rounded(.towardZero) != value { throw mismatch(type, at: index, path: path) }
            let text = { [document] in String(decoding: document.numberText(at: index), as: UTF8.self) }
            guard let exact = Self.truncated(value, to: type, text: text) else { throw outOfRange(text(), type, path: path) }
            return exact
        default: break
        }
        guard lenient else { throw mismatch(type, at: index, path: path) }
        if isNull(at: index) { return 0 }
        switch view.tag(at: index) {
        case .true: return 1
        case .false: return 0
        case .string, .escapedString:
            let text = view.string(at: index).trimmingCharacters(in: .whitespacesAndNewlines)
            if Self.trueWords.contains(text) { return 1 }
            if Self.falseWords.contains(text) { return 0 }
            if let exact = T(text) { return exact }  // full precision for 64-bit integers
            if let number = Self.number(from: text) {
                guard let value = Self.truncated(number, to: type, text: { text }) else { throw outOfRange(text, type, path: path) }
                return value
            }
        default: break
        }
        throw mismatch(type, at: index, path: path)
    }

    func decodeFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
        switch view.tag(at: index) {
        case .int64: return T(Int64(bitPattern: view[index + 1]))
        case .uint64: return T(view[index + 1])
        case .double: return T(Double(bitPattern: view[index + 1]))
        case .string, .escapedString:
            let text = view.string(at: index)
            if case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloatDecodingStrategy {
                if text == positive { return .infinity }
                if text == negative { return -.infinity }
                if text == nan { return .nan }
            }
            guard lenient else { break }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if Self.nullWords.contains(trimmed) { return 0 }
            if Self.trueWords.contains(trimmed) { return 1 }
            if Self.falseWords.contains(trimmed) { return 0 }
            if let number = Self.number(from: trimmed) { return T(number) }
        case .null where lenient: return 0
        case .true where lenient: return 1
        case .false where lenient: return 0
        default: break
        }
        throw mismatch(type, at: index, path: path)
    }

    func decodeString(at index: Int, path: [any CodingKey]) throws -> String {
        switch view.tag(at: index) {
        case .string, .escapedString: return view.string(at: index)
        case .int64 where lenient: return String(Int64(bitPattern: view[index + 1]))
        case .uint64 where lenient: return String(view[index + 1])
        case .double where lenient: return Double(bitPattern: view[index + 1]).description
        case .true where lenient: return "true"
        case .false where lenient: return "false"
        default: throw mismatch(String.self, at: index, path: path)
        }
    }

    // MARK: Foundation types

    func decodeDate(at index: Int, path: [any CodingKey]) throws -> Date {
        switch options.dateDecodingStrategy {
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeFloat(Double.self, at: index, path: path))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeFloat(Double.self, at: index, path: path) / 1000)
        case .yyModel:
            switch view.tag(at: index) {
            case .int64, .uint64, .double:
                let number = try decodeFloat(Double.self, at: index, path: path)
                return Date(timeIntervalSince1970: abs(number) > 1e11 ? number / 1000 : number)
            default:
                let text = try decodeString(at: index, path: path)
                if let date = ModelDateParser.date(from: text.trimmingCharacters(in: .whitespaces)) { return date }
                throw corrupted("Date string does not match a supported format: \(text)", path: path)
            }
        case .custom(let parse):
            let text = try decodeString(at: index, path: path)
            if let date = parse(text) { return date }
            throw corrupted("Date string not accepted by the custom strategy: \(text)", path: path)
        }
    }

    func decodeData(at index: Int, path: [any CodingKey]) throws -> Data {
        let text = try decodeString(at: index, path: path)
        guard let data = Data(base64Encoded: text) else { throw corrupted("Encountered Data is not valid Base64.", path: path) }
        return data
    }

    func decodeURL(at index: Int, path: [any CodingKey]) throws -> URL {
        var text = try decodeString(at: index, path: path)
        if lenient {
            text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let url = URL(string: text), !text.isEmpty { return url }
        if lenient, let escaped = text.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(.urlQueryAllowed)),
            let url = URL(string: escaped)
        {
            return url
        }
        throw corrupted("Invalid URL string: \(text)", path: path)
    }

    func decodeDecimal(at index: Int, path: [any CodingKey]) throws -> Decimal {
        let text: String
        switch view.tag(at: index) {
        case .int64: text = String(Int64(bitPattern: view[index + 1]))
        case .uint64: text = String(view[index + 1])
        case .double: text = Double(bitPattern: view[index + 1]).description
        case .string where lenient, .escapedString where lenient: text = view.string(at: index)
        default: throw mismatch(Decimal.self, at: index, path: path)
        }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN else {
            throw mismatch(Decimal.self, at: index, path: path)
        }
        return decimal
    }

    // MARK: Helpers

    /// `value`, a number's `Double`, truncated toward zero to `T`, or `nil` when it does not fit.
    ///
    /// -2^63 is the one `Double` within a 64-bit type's range that numbers outside the range round
    /// to (-9223372036854775809 and the next thousand below it): they decoded as `Int.min`. There
    /// the number as written (`text`) decides.
    static func truncated<T: FixedWidthInteger>(_ value: Double, to type: T.Type, text: () -> String) -> T? {
        guard let result = T(exactly: value.rounded(.towardZero)) else { return nil }
        if value == -0x1p63, let written = Decimal(string: text()), written <= Decimal(Int64.min) - 1 { return nil }
        return result
    }

    /// A JSON number written as text, or `nil`.
    static func number(from text: String) -> Double? {
        guard !text.isEmpty, let value = try? JSONValue(parsing: text) else { return nil }
        switch value {
        case .int(let number): return Double(number)
        case .uint(let number): return Double(number)
        case .double(let number): return number
        default: return nil
        }
    }

    func fit<Source: BinaryInteger, T: FixedWidthInteger>(_ value: Source, _ type: T.Type, path: [any CodingKey]) throws -> T {
        guard let exact = T(exactly: value) else { throw outOfRange(value, type, path: path) }
        return exact
    }

    func outOfRange(_ value: some CustomStringConvertible, _ type: Any.Type, path: [any CodingKey]) -> DecodingError {
        corrupted("Parsed JSON number <\(value)> does not fit in \(type).", path: path)
    }

    func corrupted(_ message: String, path: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: message))
    }

    func mismatch(_ type: Any.Type, at index: Int, path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(describe(at: index)) instead."))
    }

    func describe(at index: Int) -> String {
        switch view.tag(at: index) {
        case .null: "null"
        case .true, .false: "a boolean"
        case .int64, .uint64, .double: "a number"
        case .string, .escapedString: "a string \"\(view.string(at: index).prefix(40))\""
        case .arrayStart, .arrayEnd: "an array"
        case .objectStart, .objectEnd: "a dictionary"
        }
    }
}

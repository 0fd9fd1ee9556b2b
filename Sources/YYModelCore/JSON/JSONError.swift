/// Why a JSON text was rejected, and where.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// The text ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedByte(UInt8)
        /// An object key was expected (a string).
        case expectedKey
        /// A `:` was expected after an object key.
        case expectedColon
        /// A `,` or the end of the object or array was expected.
        case expectedCommaOrEnd
        /// Something follows the top-level value.
        case trailingCharacters
        /// A number does not follow the JSON grammar.
        case invalidNumber
        /// A number is too large for a `Double` (it would be infinite).
        case numberOutOfRange
        /// A backslash escape that JSON does not define.
        case invalidEscape
        /// A `\u` escape without four hex digits.
        case invalidUnicodeEscape
        /// A `\u` escape of half of a surrogate pair without the other half.
        case loneSurrogate
        /// A control character (below U+0020) inside a string.
        case controlCharacterInString
        /// Bytes that are not valid UTF-8.
        case invalidUTF8
        /// Containers nested deeper than the limit.
        case tooDeep(limit: Int)
        /// The input is larger than the limit.
        case tooLarge(limit: Int)
    }

    /// What was wrong.
    public let reason: Reason
    /// The byte offset of the problem (0-based).
    public let offset: Int
    /// The line of the problem (1-based).
    public let line: Int
    /// The column of the problem, in bytes (1-based).
    public let column: Int

    /// Creates an error at `offset` in `input`, working out its line and column.
    init(_ reason: Reason, at offset: Int, in input: UnsafeBufferPointer<UInt8>) {
        self.reason = reason
        self.offset = offset
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, input.count) where input[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        self.line = line
        column = offset - lineStart + 1
    }

    public var description: String {
        "line \(line), column \(column) (byte \(offset)): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .unexpectedEnd: "unexpected end of input"
        case .unexpectedByte(let byte):
            (0x20..<0x7F).contains(byte)
                ? "unexpected character '\(Character(Unicode.Scalar(byte)))'"
                : "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
        case .expectedKey: "expected a string as object key"
        case .expectedColon: "expected ':' after an object key"
        case .expectedCommaOrEnd: "expected ',' or the end of the container"
        case .trailingCharacters: "unexpected characters after the top-level value"
        case .invalidNumber: "invalid number"
        case .numberOutOfRange: "number out of the range of a Double"
        case .invalidEscape: "invalid escape sequence"
        case .invalidUnicodeEscape: "invalid \\u escape (four hex digits expected)"
        case .loneSurrogate: "lone UTF-16 surrogate in a \\u escape"
        case .controlCharacterInString: "unescaped control character in a string"
        case .invalidUTF8: "invalid UTF-8"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels"
        case .tooLarge(let limit): "input larger than \(limit) bytes"
        }
    }
}

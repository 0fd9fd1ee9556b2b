#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Limits that keep hostile input from costing unbounded time or memory.
public struct JSONParsingOptions: Sendable, Equatable {
    /// The deepest nesting of arrays and objects accepted. Default 512.
    public var maximumDepth: Int
    /// The largest input accepted, in bytes. Default 1 GiB.
    public var maximumInputSize: Int

    /// Creates options; the defaults suit untrusted input.
    public init(maximumDepth: Int = 512, maximumInputSize: Int = 1 << 30) {
        self.maximumDepth = maximumDepth
        self.maximumInputSize = maximumInputSize
    }
}

/// The validating JSON parser: UTF-8 in, ``JSONTape`` out, in one pass.
///
/// It accepts exactly RFC 8259 (plus one leading UTF-8 byte-order mark): every string is checked
/// for valid UTF-8, escapes and control characters, every number against the grammar. Lone
/// surrogates in `\u` escapes are rejected (JSONTestSuite leaves that choice open). Nesting is
/// handled with an explicit stack, so deep input meets the depth limit, never a stack overflow.
///
/// The loop reads the input through an `UnsafeBufferPointer`; every index is checked against
/// `end` before it is read.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let options: JSONParsingOptions
    private var position = 0
    private var tape = JSONTape()

    private struct OpenContainer {
        var startWord: Int
        var isObject: Bool
        var count: Int
    }

    private enum State { case value, key, afterValue }

    static func parse(_ input: UnsafeBufferPointer<UInt8>, options: JSONParsingOptions) throws(JSONError) -> JSONTape {
        var parser = JSONParser(input: input, options: options)
        try parser.run()
        return parser.tape
    }

    private init(input: UnsafeBufferPointer<UInt8>, options: JSONParsingOptions) {
        self.input = input
        self.options = options
        // Most values take one or two words; a word per three bytes is a good first guess.
        tape.words.reserveCapacity(input.count / 3 + 4)
    }

    private func fail(_ reason: JSONError.Reason, at offset: Int? = nil) -> JSONError {
        JSONError(reason, at: offset ?? position, in: input)
    }

    private mutating func run() throws(JSONError) {
        if input.count > options.maximumInputSize { throw fail(.tooLarge(limit: options.maximumInputSize), at: 0) }
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { position = 3 }
        var stack: [OpenContainer] = []
        var state = State.value
        while true {
            switch state {
            case .value:
                skipWhitespace()
                guard position < input.count else { throw fail(.unexpectedEnd) }
                let byte = input[position]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.count < options.maximumDepth else { throw fail(.tooDeep(limit: options.maximumDepth)) }
                    let isObject = byte == UInt8(ascii: "{")
                    stack.append(OpenContainer(startWord: tape.words.count, isObject: isObject, count: 0))
                    tape.words.append(0)  // patched when the container closes
                    position += 1
                    skipWhitespace()
                    if position < input.count, input[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        close(stack.removeLast())
                        state = .afterValue
                    } else {
                        state = isObject ? .key : .value
                    }
                case UInt8(ascii: "\""):
                    try parseString()
                    state = .afterValue
                case UInt8(ascii: "t"):
                    try parseLiteral("true", .true)
                    state = .afterValue
                case UInt8(ascii: "f"):
                    try parseLiteral("false", .false)
                    state = .afterValue
                case UInt8(ascii: "n"):
                    try parseLiteral("null", .null)
                    state = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try parseNumber()
                    state = .afterValue
                default:
                    throw fail(.unexpectedByte(byte))
                }
            case .key:
                skipWhitespace()
                guard position < input.count else { throw fail(.unexpectedEnd) }
                guard input[position] == UInt8(ascii: "\"") else { throw fail(.expectedKey) }
                try parseString()
                skipWhitespace()
                guard position < input.count else { throw fail(.unexpectedEnd) }
                guard input[position] == UInt8(ascii: ":") else { throw fail(.expectedColon) }
                position += 1
                state = .value
            case .afterValue:
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if position != input.count { throw fail(.trailingCharacters) }
                    return
                }
                stack[stack.count - 1].count += 1
                skipWhitespace()
                guard position < input.count else { throw fail(.unexpectedEnd) }
                let byte = input[position]
                let isObject = stack[stack.count - 1].isObject
                if byte == UInt8(ascii: ",") {
                    position += 1
                    state = isObject ? .key : .value
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    close(stack.removeLast())
                } else {
                    throw fail(.expectedCommaOrEnd)
                }
            }
        }
    }

    private mutating func close(_ container: OpenContainer) {
        let endWord = tape.words.count
        tape.words.append(JSONTape.word(container.isObject ? .objectEnd : .arrayEnd, UInt64(container.count)))
        tape.words[container.startWord] = JSONTape.word(container.isObject ? .objectStart : .arrayStart, UInt64(endWord))
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < input.count {
            switch input[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    private mutating func parseLiteral(_ literal: StaticString, _ tag: JSONTape.Tag) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for i in 0..<count {
            guard position + i < input.count else { throw fail(.unexpectedEnd, at: input.count) }
            guard input[position + i] == bytes[i] else { throw fail(.unexpectedByte(input[position + i]), at: position + i) }
        }
        position += count
        tape.words.append(JSONTape.word(tag))
    }

    // MARK: Strings

    /// Validates a string starting at the opening quote and records its extent.
    private mutating func parseString() throws(JSONError) {
        position += 1  // the opening quote
        let start = position
        var escaped = false
        while true {
            // Fast path: plain ASCII.
            while position < input.count {
                let byte = input[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
                position += 1
            }
            guard position < input.count else { throw fail(.unexpectedEnd) }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try validateEscape()
            } else if byte < 0x20 {
                throw fail(.controlCharacterInString)
            } else {
                try validateUTF8Sequence()
            }
        }
        tape.words.append(JSONTape.word(escaped ? .escapedString : .string, UInt64(start)))
        tape.words.append(UInt64(position - start))
        position += 1  // the closing quote
    }

    private mutating func validateEscape() throws(JSONError) {
        let escapeStart = position
        position += 1
        guard position < input.count else { throw fail(.unexpectedEnd) }
        switch input[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            let unit = try readHex4(at: position + 1)
            position += 5
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate must be followed by `\u` and a low surrogate.
                guard position + 1 < input.count, input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u"),
                      (0xDC00...0xDFFF).contains(try readHex4(at: position + 2))
                else { throw fail(.loneSurrogate, at: escapeStart) }
                position += 6
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw fail(.loneSurrogate, at: escapeStart)
            }
        default:
            throw fail(.invalidEscape, at: escapeStart)
        }
    }

    private func readHex4(at offset: Int) throws(JSONError) -> UInt16 {
        guard offset + 4 <= input.count else { throw fail(.invalidUnicodeEscape, at: offset - 2) }
        var value: UInt16 = 0
        for i in 0..<4 {
            guard let digit = JSONParser.hexValue(input[offset + i]) else { throw fail(.invalidUnicodeEscape, at: offset - 2) }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Checks one multi-byte UTF-8 sequence (Unicode table 3-7: no overlongs, no surrogates,
    /// nothing above U+10FFFF).
    private mutating func validateUTF8Sequence() throws(JSONError) {
        let lead = input[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw fail(.invalidUTF8)
        }
        guard position + length <= input.count else { throw fail(.invalidUTF8) }
        guard secondRange.contains(input[position + 1]) else { throw fail(.invalidUTF8) }
        for i in 2..<length where input[position + i] & 0xC0 != 0x80 { throw fail(.invalidUTF8, at: position + i) }
        position += length
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONError) {
        let start = position
        var negative = false
        if input[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard position < input.count, isDigit(input[position]) else { throw fail(.invalidNumber, at: start) }
        // Integer part: a lone 0, or digits not starting with 0.
        var mantissa: UInt64 = 0
        var digits = 0
        var overflow = false
        if input[position] == UInt8(ascii: "0") {
            position += 1
            if position < input.count, isDigit(input[position]) { throw fail(.invalidNumber, at: start) }
        } else {
            while position < input.count, isDigit(input[position]) {
                let (times10, o1) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(input[position] - UInt8(ascii: "0")))
                if o1 || o2 { overflow = true } else { mantissa = sum }
                digits += 1
                position += 1
            }
        }
        var isInteger = true
        var fractionDigits = 0
        if position < input.count, input[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < input.count, isDigit(input[position]) else { throw fail(.invalidNumber, at: start) }
            while position < input.count, isDigit(input[position]) {
                if !overflow, digits < 19 {
                    mantissa = mantissa * 10 + UInt64(input[position] - UInt8(ascii: "0"))
                    digits += 1
                    fractionDigits += 1
                } else {
                    overflow = true
                }
                position += 1
            }
        }
        var exponent = 0
        if position < input.count, input[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            var exponentNegative = false
            if position < input.count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                exponentNegative = input[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < input.count, isDigit(input[position]) else { throw fail(.invalidNumber, at: start) }
            while position < input.count, isDigit(input[position]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(input[position] - UInt8(ascii: "0")) }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        if isInteger && !overflow {
            if negative {
                if mantissa <= UInt64(Int64.max) + 1 {
                    tape.words.append(JSONTape.word(.int64))
                    tape.words.append(UInt64(bitPattern: mantissa == UInt64(Int64.max) + 1 ? Int64.min : -Int64(mantissa)))
                    return
                }
            } else if mantissa <= UInt64(Int64.max) {
                tape.words.append(JSONTape.word(.int64))
                tape.words.append(mantissa)
                return
            } else {
                tape.words.append(JSONTape.word(.uint64))
                tape.words.append(mantissa)
                return
            }
        }
        let value = try doubleValue(start: start, negative: negative, mantissa: mantissa, overflow: overflow,
                                    exponent: exponent - fractionDigits)
        tape.words.append(JSONTape.word(.double))
        tape.words.append(value.bitPattern)
    }

    /// The correctly rounded `Double` of the number text at `start..<position`.
    ///
    /// Fast path (Clinger): when the decimal mantissa and the power of ten are both exact doubles,
    /// one multiplication or division rounds correctly. Then Eisel-Lemire for mantissas of up to
    /// 19 digits. Otherwise (more digits, or the rare undecided case) `strtod` reads the text.
    private func doubleValue(start: Int, negative: Bool, mantissa: UInt64, overflow: Bool, exponent: Int) throws(JSONError) -> Double {
        if !overflow, mantissa <= 1 << 53, (-22...22).contains(exponent) {
            var value = Double(mantissa)
            value = exponent < 0 ? value / JSONParser.powersOfTen[-exponent] : value * JSONParser.powersOfTen[exponent]
            return negative ? -value : value
        }
        if !overflow, let value = JSONParser.eiselLemire(mantissa, exponent) {
            guard value.isFinite else { throw fail(.numberOutOfRange, at: start) }
            return negative ? -value : value
        }
        let value = JSONParser.correctlyRoundedDouble(UnsafeBufferPointer(rebasing: input[start..<position]))
        guard value.isFinite else { throw fail(.numberOutOfRange, at: start) }
        return value
    }

    /// Reads validated JSON number text with the C library's `strtod`, which glibc rounds
    /// correctly, from a NUL-terminated copy on the stack (no `String` is built). `strtod` follows
    /// the process's `LC_NUMERIC`; when that does not use `.` as the decimal point, the standard
    /// library's locale-independent reader is used instead.
    static func correctlyRoundedDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        guard text.count < 256, localeconv().pointee.decimal_point.pointee == CChar(UInt8(ascii: ".")) else {
            return Double(String(decoding: text, as: UTF8.self)) ?? .nan
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for i in 0..<text.count { buffer[i] = CChar(bitPattern: text[i]) }
            buffer[text.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}

internal import CYYJSONScan

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The validating JSON parser: UTF-8 in, ``JSONTape`` out, in one pass.
///
/// It accepts exactly RFC 8259 (plus one leading UTF-8 byte-order mark): every string is checked
/// for valid UTF-8, escapes and control characters, every number against the grammar. Lone
/// surrogates in `\u` escapes are rejected (JSONTestSuite leaves that choice open). Nesting is
/// handled with an explicit stack, so deep input meets the depth limit, never a stack overflow.
///
/// The loop reads the input through an `UnsafeBufferPointer`; every index is checked against
/// `input.count` before it is read, and the eight-byte loads (``load8(at:)``) only run where eight
/// bytes remain. Plain string bytes and indentation are scanned eight at a time, and string text
/// with multi-byte UTF-8 32 bytes at a time (`yy_json_scan_string`, AVX2, where it runs), so the
/// common cases cost a fraction of a byte-at-a-time loop. The helpers called for nearly every value
/// (strings, keys, whitespace) are inlined into the loop, which keeps the position in a register
/// (what that saves: `Benchmarks/README.md`, "Measured design choices").
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let options: JSONParsingOptions
    private var position = 0
    private var tape: JSONTapeWriter
    /// Whether string text with multi-byte UTF-8 is scanned by `yy_json_scan_string` (AVX2 here)
    /// rather than by the portable checks.
    private let vectorScan: Bool

    /// An array or object being parsed: where its start word is and how many members it has so far.
    private struct OpenContainer {
        var startWord: Int
        var isObject: Bool
        var count: Int
    }

    /// Parses `input`; `vectorScan: false` checks strings with the portable code alone (the
    /// parity tests compare the two).
    static func parse(
        _ input: UnsafeBufferPointer<UInt8>, options: JSONParsingOptions, vectorScan: Bool = JSONParser.vectorScanAvailable
    ) throws(JSONError) -> JSONTape {
        var parser = JSONParser(input: input, options: options, vectorScan: vectorScan)
        try parser.run()
        return parser.tape.finish()
    }

    /// Whether `yy_json_scan_string` runs on this processor.
    static let vectorScanAvailable = yy_json_scan_available() != 0

    private init(input: UnsafeBufferPointer<UInt8>, options: JSONParsingOptions, vectorScan: Bool) {
        self.input = input
        self.options = options
        self.vectorScan = vectorScan
        // Most values take one or two words; a word per three bytes is a good first guess.
        tape = JSONTapeWriter(capacity: input.count / 3 + 4)
    }

    private func fail(_ reason: JSONError.Reason, at offset: Int? = nil) -> JSONError {
        JSONError(reason, at: offset ?? position, in: input)
    }

    private mutating func run() throws(JSONError) {
        if input.count > options.maximumInputSize { throw fail(.tooLarge(limit: options.maximumInputSize), at: 0) }
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { position = 3 }
        // The innermost open container lives in `current`, the ones around it in `enclosing`:
        // counting a member touches a local, not the array.
        var enclosing: [OpenContainer] = []
        var current = OpenContainer(startWord: 0, isObject: false, count: 0)
        var depth = 0
        nextValue: while true {
            skipWhitespace()
            guard position < input.count else { throw fail(.unexpectedEnd) }
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < options.maximumDepth else { throw fail(.tooDeep(limit: options.maximumDepth)) }
                if depth > 0 { enclosing.append(current) }
                depth += 1
                current = OpenContainer(startWord: tape.count, isObject: byte == UInt8(ascii: "{"), count: 0)
                tape.append(0)  // replaced when the container closes
                position += 1
                skipWhitespace()
                if position < input.count, input[position] == byte + 2 {  // `}` is `{` + 2, `]` is `[` + 2
                    position += 1
                    close(current)
                    depth -= 1
                    if depth > 0 { current = enclosing.removeLast() }
                } else {
                    if current.isObject { try parseKey() }
                    continue nextValue
                }
            case UInt8(ascii: "\""):
                try parseString()
            case UInt8(ascii: "t"):
                try parseLiteral("true", .true)
            case UInt8(ascii: "f"):
                try parseLiteral("false", .false)
            case UInt8(ascii: "n"):
                try parseLiteral("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parseNumber()
            default:
                throw fail(.unexpectedByte(byte))
            }
            // A value is complete: a comma, or the end of one or more containers, follows.
            while depth > 0 {
                current.count += 1
                skipWhitespace()
                guard position < input.count else { throw fail(.unexpectedEnd) }
                let byte = input[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    if current.isObject { try parseKey() }
                    continue nextValue
                }
                guard byte == (current.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw fail(.expectedCommaOrEnd) }
                position += 1
                close(current)
                depth -= 1
                if depth > 0 { current = enclosing.removeLast() }
            }
            skipWhitespace()
            if position != input.count { throw fail(.trailingCharacters) }
            return
        }
    }

    /// Parses an object key and the colon after it.
    @inline(__always)
    private mutating func parseKey() throws(JSONError) {
        skipWhitespace()
        guard position < input.count else { throw fail(.unexpectedEnd) }
        guard input[position] == UInt8(ascii: "\"") else { throw fail(.expectedKey) }
        try parseString()
        skipWhitespace()
        guard position < input.count else { throw fail(.unexpectedEnd) }
        guard input[position] == UInt8(ascii: ":") else { throw fail(.expectedColon) }
        position += 1
    }

    private mutating func close(_ container: OpenContainer) {
        let endWord = tape.count
        tape.append(JSONTape.word(container.isObject ? .objectEnd : .arrayEnd, UInt64(container.count)))
        tape.replace(at: container.startWord, with: JSONTape.word(container.isObject ? .objectStart : .arrayStart, UInt64(endWord)))
    }

    /// The eight input bytes from `offset`, the first in the lowest byte. `offset + 8` must not
    /// exceed `input.count`.
    @inline(__always)
    private func load8(at offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= input.count)
        return UInt64(littleEndian: UnsafeRawPointer(input.baseAddress!).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Skips JSON whitespace. Most gaps are empty or one space; the rest are line breaks and
    /// indentation, which ``skipWhitespaceRun()`` takes eight bytes at a time.
    @inline(__always)
    private mutating func skipWhitespace() {
        guard position < input.count, input[position] <= UInt8(ascii: " ") else { return }
        skipWhitespaceRun()
    }

    @inline(__always)
    private mutating func skipWhitespaceRun() {
        var offset = position
        defer { position = offset }
        while offset < input.count {
            switch input[offset] {
            case UInt8(ascii: " "):
                offset += 1
                while offset + 8 <= input.count {
                    // Each byte that is not a space leaves a non-zero byte; the lowest is the first.
                    let notSpaces = load8(at: offset) ^ 0x2020_2020_2020_2020
                    if notSpaces != 0 {
                        offset += notSpaces.trailingZeroBitCount >> 3
                        break
                    }
                    offset += 8
                }
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                offset += 1
            default:
                return
            }
        }
    }

    /// Parses `true`, `false` or `null`; the first byte, at `position`, has been matched.
    private mutating func parseLiteral(_ literal: StaticString, _ tag: JSONTape.Tag) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        // The last four bytes compared at once where they are all there; byte by byte otherwise,
        // and to name the wrong byte.
        let lastFour = position + count - 4
        if lastFour + 4 > input.count
            || load4(at: lastFour) != UnsafeRawPointer(literal.utf8Start).loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        {
            for i in 0..<count {
                guard position + i < input.count else { throw fail(.unexpectedEnd, at: input.count) }
                guard input[position + i] == bytes[i] else { throw fail(.unexpectedByte(input[position + i]), at: position + i) }
            }
        }
        position += count
        tape.append(JSONTape.word(tag))
    }

    /// The four input bytes from `offset`, in memory order. `offset + 4` must not exceed
    /// `input.count`.
    @inline(__always)
    private func load4(at offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= input.count)
        return UnsafeRawPointer(input.baseAddress!).loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }

    // MARK: Strings

    /// Marks, in the high bit of each byte, the bytes of `word` that end a run of plain string
    /// text: `"`, `\\`, control characters (below 0x20) and the bytes of multi-byte UTF-8 (0x80
    /// and above). Bytes above a marked byte may be marked wrongly (borrows carry upwards), so only
    /// the lowest mark counts; it is always right.
    @inline(__always)
    static func stringSpecialBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let zeroIfQuote = (quotes &- ones) & ~quotes  // high bit set where a byte is `"`
        let zeroIfBackslash = (backslashes &- ones) & ~backslashes
        let belowSpace = (word &- ones &* 0x20) & ~word  // high bit set where a byte is < 0x20
        return (zeroIfQuote | zeroIfBackslash | belowSpace | word) & (ones &* 0x80)
    }

    /// Validates a string starting at the opening quote and records its extent.
    ///
    /// Plain ASCII is skipped eight bytes at a time. Text with multi-byte UTF-8 goes to
    /// `yy_json_scan_string` (32 bytes a step, where ``vectorScan`` is on: it pays for its call
    /// there, not on the short ASCII strings most keys and values are); where it finds something
    /// wrong it is not asked again for this string, and the portable checks find and name the bad
    /// byte.
    @inline(__always)
    private mutating func parseString() throws(JSONError) {
        position += 1  // the opening quote
        let start = position
        var escaped = false
        var vectorScan = self.vectorScan
        while true {
            skipPlainASCII()
            guard position < input.count else { throw fail(.unexpectedEnd) }
            let byte = input[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try validateEscape()
            } else if byte < 0x20 {
                throw fail(.controlCharacterInString)
            } else if byte >= 0x80 {
                if !(vectorScan && vectorScanText()) {
                    vectorScan = false  // the portable checks name what is wrong; no second scan
                    try validateUTF8Run()
                }
            } else {
                position += 1  // fewer than eight bytes remain
            }
        }
        tape.append(JSONTape.word(escaped ? .escapedString : .string, UInt64(start)), UInt64(position - start))
        position += 1  // the closing quote
    }

    /// Moves past plain string text (printable ASCII other than `"` and `\`), eight bytes at a
    /// time, stopping at the first other byte or where fewer than eight bytes remain.
    @inline(__always)
    private mutating func skipPlainASCII() {
        var offset = position
        while offset + 8 <= input.count {
            let special = JSONParser.stringSpecialBytes(in: load8(at: offset))
            if special != 0 {
                offset += special.trailingZeroBitCount >> 3
                break
            }
            offset += 8
        }
        position = offset
    }

    /// Moves `position` to the end of the plain, valid string text there (see
    /// `yy_json_scan_string`) and returns `true`; returns `false`, moving nothing, where that text
    /// has bad UTF-8 or no end.
    private mutating func vectorScanText() -> Bool {
        let length = yy_json_scan_string(input.baseAddress! + position, input.count - position)
        guard length >= 0 else { return false }
        position += length
        return true
    }

    /// Validates text from `position` (a byte of 0x80 or above) that is mostly multi-byte UTF-8,
    /// as in most scripts other than Latin, up to a quote, backslash or control byte, or the end
    /// of the input. Lone ASCII bytes between the characters (spaces, punctuation) are taken here
    /// too: switching back to the eight-byte scan for each would cost more than it saves.
    private mutating func validateUTF8Run() throws(JSONError) {
        var offset = position
        while offset < input.count {
            let lead = input[offset]
            if lead < 0x80 {
                if lead == UInt8(ascii: "\"") || lead == UInt8(ascii: "\\") || lead < 0x20 { break }
                // Two ASCII bytes in a row: back to the eight-byte scan.
                if offset + 1 < input.count, input[offset + 1] < 0x80 { break }
                offset += 1
                continue
            }
            // The scalar value's high bits are enough to reject overlong forms, surrogates and
            // values above U+10FFFF (Unicode table 3-7); anything wrong is reported by the
            // byte-by-byte check, which knows which byte to blame.
            if lead & 0xF0 == 0xE0, offset + 2 < input.count, input[offset + 1] & 0xC0 == 0x80, input[offset + 2] & 0xC0 == 0x80 {
                let high = UInt32(lead & 0x0F) << 12 | UInt32(input[offset + 1] & 0x3F) << 6
                if high >= 0x800, high & 0xF800 != 0xD800 {
                    offset += 3
                    continue
                }
            } else if lead & 0xE0 == 0xC0, offset + 1 < input.count, lead >= 0xC2, input[offset + 1] & 0xC0 == 0x80 {
                offset += 2
                continue
            } else if lead & 0xF8 == 0xF0, offset + 3 < input.count, input[offset + 1] & 0xC0 == 0x80,
                input[offset + 2] & 0xC0 == 0x80, input[offset + 3] & 0xC0 == 0x80
            {
                let high = UInt32(lead & 0x07) << 18 | UInt32(input[offset + 1] & 0x3F) << 12
                if high >= 0x10000, high <= 0x10FFFF {
                    offset += 4
                    continue
                }
            }
            position = offset
            try validateUTF8Sequence()  // throws, naming the offending byte
            offset = position
        }
        position = offset
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
            // Eight digits a step while the mantissa cannot pass 19 digits, then one at a time
            // (integer parts are mostly short: a shorter run read in one step measured slower).
            while digits <= 11, position + 8 <= input.count, let eight = Self.eightDigits(load8(at: position)) {
                mantissa = mantissa &* 100_000_000 &+ eight
                digits += 8
                position += 8
            }
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
            // Up to eight digits a step, a shorter run too (fractions are often long), while the
            // mantissa cannot pass 19 digits; then one at a time.
            while !overflow, digits <= 11, position + 8 <= input.count {
                let run = Self.leadingDigits(load8(at: position))
                mantissa = mantissa &* Self.powersOfTenUInt64[run.count] &+ run.value
                digits += run.count
                fractionDigits += run.count
                position += run.count
                if run.count < 8 { break }
            }
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

        // The tag word also keeps where the number's text starts, for writers that copy it as written.
        let offset = UInt64(start)
        if isInteger && !overflow {
            if negative {
                if mantissa <= UInt64(Int64.max) + 1 {
                    tape.append(JSONTape.word(.int64, offset), UInt64(bitPattern: mantissa == UInt64(Int64.max) + 1 ? Int64.min : -Int64(mantissa)))
                    return
                }
            } else if mantissa <= UInt64(Int64.max) {
                tape.append(JSONTape.word(.int64, offset), mantissa)
                return
            } else {
                tape.append(JSONTape.word(.uint64, offset), mantissa)
                return
            }
        }
        let value = try doubleValue(
            start: start, negative: negative, mantissa: mantissa, overflow: overflow,
            exponent: exponent - fractionDigits)
        tape.append(JSONTape.word(.double, offset), value.bitPattern)
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

    /// 10^0 through 10^22, every one exact in a `Double`. A literal, laid out at compile time: a
    /// global built at run time is checked for initialisation at every read.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
        1e21, 1e22,
    ]

    /// The value of eight ASCII digits loaded by ``load8(at:)`` (the first digit in the lowest
    /// byte), or `nil` when any of the eight bytes is not a digit: a check and three
    /// multiplications instead of eight steps of a loop.
    @inline(__always)
    static func eightDigits(_ word: UInt64) -> UInt64? {
        nonDigitBytes(word) == 0 ? digitValue(word) : nil
    }

    /// The high bit of each byte of `word` that is not an ASCII digit, and possibly of bytes after
    /// the first such byte; none when all eight are digits.
    @inline(__always)
    private static func nonDigitBytes(_ word: UInt64) -> UInt64 {
        // Each byte XOR "0" is 0-9 exactly when it is a digit; adding 0x76 sets the high bit of
        // any other (a carry out of a byte only reaches the bytes after it, past a non-digit).
        let offsets = word ^ 0x3030_3030_3030_3030
        return ((offsets &+ 0x7676_7676_7676_7676) | offsets) & 0x8080_8080_8080_8080
    }

    /// The value of eight ASCII digits, the first in the lowest byte (each byte already known to
    /// be a digit).
    @inline(__always)
    private static func digitValue(_ word: UInt64) -> UInt64 {
        // Digit values, then pairs (d0·10 + d1 in every other byte), then the four pairs weighted
        // 10^6, 10^4, 10^2, 1 in the upper half of two 64-bit products.
        var value = word &- 0x3030_3030_3030_3030
        value = value &* 10 &+ (value >> 8)
        let pairs02 = value & 0x0000_00FF_0000_00FF
        let pairs13 = (value >> 16) & 0x0000_00FF_0000_00FF
        return (pairs02 &* (100 + (1_000_000 << 32)) &+ pairs13 &* (1 + (10_000 << 32))) >> 32
    }

    /// How many of the eight bytes loaded by ``load8(at:)`` are digits before the first byte that
    /// is not, and their value: a number's digits up to eight at a time, in one step.
    @inline(__always)
    static func leadingDigits(_ word: UInt64) -> (count: Int, value: UInt64) {
        let count = nonDigitBytes(word).trailingZeroBitCount >> 3
        switch count {
        case 0: return (0, 0)
        case 8: return (8, digitValue(word))
        default:
            // The digits moved to the top bytes and "0"s put below them: the same value.
            let shift = UInt64(8 * (8 - count))
            let padded = word << shift | 0x3030_3030_3030_3030 >> UInt64(8 * count)
            return (count, digitValue(padded))
        }
    }

    /// 10^0 through 10^8: the scale of a run of up to eight digits.
    private static let powersOfTenUInt64: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}

/// A parsed JSON text: the input bytes and their tape (one 64-bit word per value and container end).
///
/// Parsing validates the whole text in one pass; values are materialised only when asked for
/// (``value``), and strings without escapes are read straight from the input.
///
/// ```swift
/// let document = try JSONDocument(parsing: data)
/// let value = document.value          // JSONValue
/// let pretty = document.formatted(pretty: true)
/// ```
public struct JSONDocument: Sendable {
    /// The input, as parsed.
    let bytes: [UInt8]
    let tape: JSONTape

    /// Parses UTF-8 JSON.
    ///
    /// - Throws: ``JSONError`` with the reason and position of the first problem.
    public init(parsing data: some Collection<UInt8>, options: JSONParsingOptions = JSONParsingOptions()) throws(JSONError) {
        // A quick check before copying: a hostile caller may hand over a huge collection.
        if data.count > options.maximumInputSize {
            throw JSONError(.tooLarge(limit: options.maximumInputSize), at: 0, in: UnsafeBufferPointer(start: nil, count: 0))
        }
        bytes = Array(data)
        tape = try bytes.withUnsafeBufferPointer { (input) throws(JSONError) -> JSONTape in
            try JSONParser.parse(input, options: options)
        }
    }

    /// Parses JSON text.
    public init(parsing text: String, options: JSONParsingOptions = JSONParsingOptions()) throws(JSONError) {
        try self.init(parsing: Array(text.utf8), options: options)
    }

    /// The whole document as a ``JSONValue``.
    public var value: JSONValue {
        var index = 0
        return value(at: &index)
    }

    /// The value starting at tape word `index`; moves `index` past it.
    func value(at index: inout Int) -> JSONValue {
        let start = index
        index = tape.indexAfterValue(at: start)
        switch tape.tag(at: start) {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .int64: return .int(Int64(bitPattern: tape[start + 1]))
        case .uint64: return .uint(tape[start + 1])
        case .double: return .double(Double(bitPattern: tape[start + 1]))
        case .string, .escapedString: return .string(string(at: start))
        case .arrayStart:
            var elements: [JSONValue] = []
            elements.reserveCapacity(tape.count(ofContainerAt: start))
            for element in tape.elements(ofArrayAt: start) {
                var cursor = element
                elements.append(value(at: &cursor))
            }
            return .array(elements)
        case .objectStart:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(tape.count(ofContainerAt: start))
            for member in tape.members(ofObjectAt: start) {
                var cursor = member.value
                members[string(at: member.key)] = value(at: &cursor)  // a repeated key: the last one wins
            }
            return .object(members)
        case .arrayEnd, .objectEnd:
            preconditionFailure("a value cannot start with the end of a container")
        }
    }

    /// The input text of the number whose tape entry is at `index`, as written.
    func numberText(at index: Int) -> ArraySlice<UInt8> {
        let start = Int(tape.payload(at: index))
        var end = start
        // The parser has checked the grammar; the text runs to the first byte no number has.
        while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
        return bytes[start..<end]
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// The string whose tape entry is at `index`, unescaped.
    func string(at index: Int) -> String {
        withView { $0.string(at: index) }
    }

    /// Calls `body` with a ``TapeView`` of this document, valid for the call.
    func withView<R, E: Error>(_ body: (TapeView) throws(E) -> R) throws(E) -> R {
        try bytes.withUnsafeBufferPointer { (input) throws(E) -> R in
            try tape.withWords { (words) throws(E) -> R in try body(TapeView(words: words, input: input)) }
        }
    }

    /// The text of string contents as they are in the input (`raw`, validated by the parser),
    /// with escapes decoded when `escaped`.
    static func string(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool) -> String {
        escaped ? unescape(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Decodes the escapes of string contents the parser has already validated.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        // Escapes only shrink text (`\uXXXX`, six bytes, is at most three; a surrogate pair,
        // twelve, is four), so the raw length is room enough, and the result is written in place.
        String(unsafeUninitializedCapacity: raw.count) { output in
            var written = 0
            var i = 0
            while i < raw.count {
                let byte = raw[i]
                guard byte == UInt8(ascii: "\\") else {
                    output[written] = byte
                    written += 1
                    i += 1
                    continue
                }
                let kind = raw[i + 1]
                i += 2
                let decoded: UInt8
                switch kind {
                case UInt8(ascii: "b"): decoded = 0x08
                case UInt8(ascii: "f"): decoded = 0x0C
                case UInt8(ascii: "n"): decoded = 0x0A
                case UInt8(ascii: "r"): decoded = 0x0D
                case UInt8(ascii: "t"): decoded = 0x09
                case UInt8(ascii: "u"):
                    var scalar = UInt32(hex4(raw, at: i))
                    i += 4
                    if (0xD800...0xDBFF).contains(scalar) {
                        let low = UInt32(hex4(raw, at: i + 2))
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                    for unit in Unicode.UTF8.encode(Unicode.Scalar(scalar)!)! {
                        output[written] = unit
                        written += 1
                    }
                    continue
                default: decoded = kind  // \" \\ \/
                }
                output[written] = decoded
                written += 1
            }
            return written
        }
    }

    private static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt16 {
        var value: UInt16 = 0
        for i in 0..<4 { value = value << 4 | UInt16(JSONParser.hexValue(raw[offset + i])!) }
        return value
    }
}

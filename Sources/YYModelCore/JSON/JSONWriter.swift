/// Writes JSON text: compact or pretty, with correct escaping and shortest round-trip doubles.
///
/// Strings are written as UTF-8 with `"`, `\` and control characters escaped. Doubles use Swift's
/// shortest representation that parses back to the same bits (`0.1` stays `0.1`, never
/// `0.10000000000000001`); integral doubles keep a `.0` so they read back as doubles. Infinity
/// and NaN have no JSON form and are rejected.
public struct JSONWriter: Sendable {
    /// Indent with two spaces and put each member on its own line.
    public var pretty: Bool
    /// Write object members in key order (for stable output).
    public var sortedKeys: Bool

    /// Creates a writer; compact and in dictionary order by default.
    public init(pretty: Bool = false, sortedKeys: Bool = false) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
    }

    /// The UTF-8 JSON text of `value`.
    public func bytes(for value: JSONValue) throws(JSONWriterError) -> [UInt8] {
        var output = JSONOutput(pretty: pretty)
        try write(value, to: &output)
        return output.bytes
    }

    /// The JSON text of `value`.
    public func string(for value: JSONValue) throws(JSONWriterError) -> String {
        String(decoding: try bytes(for: value), as: UTF8.self)
    }

    private func write(_ value: JSONValue, to output: inout JSONOutput) throws(JSONWriterError) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .int(let number): output.appendInteger(number)
        case .uint(let number): output.appendInteger(number)
        case .double(let number): try output.appendDouble(number)
        case .string(let text): output.appendString(text)
        case .array(let elements):
            try output.writeArray(elements) { (output, element) throws(JSONWriterError) in try write(element, to: &output) }
        case .object(let members):
            if sortedKeys {
                try output.writeObject(members.sorted { $0.key < $1.key }, key: \.key) { (output, member) throws(JSONWriterError) in
                    try write(member.value, to: &output)
                }
            } else {
                try output.writeObject(members, key: \.key) { (output, member) throws(JSONWriterError) in try write(member.value, to: &output) }
            }
        }
    }
}

extension JSONValue {
    /// The JSON text of this value. Infinity and NaN are written as `null`; use ``JSONWriter``
    /// to have them rejected instead.
    public func jsonString(pretty: Bool = false, sortedKeys: Bool = false) -> String {
        (try? JSONWriter(pretty: pretty, sortedKeys: sortedKeys).string(for: self.replacingNonFiniteNumbers())) ?? "null"
    }

    private func replacingNonFiniteNumbers() -> JSONValue {
        switch self {
        case .double(let number) where !number.isFinite: .null
        case .array(let elements): .array(elements.map { $0.replacingNonFiniteNumbers() })
        case .object(let members): .object(members.mapValues { $0.replacingNonFiniteNumbers() })
        default: self
        }
    }
}

extension JSONDocument {
    /// The document written again, compact or pretty, keeping the input's member order.
    ///
    /// Numbers are copied as written, so nothing is lost: an integer beyond 64 bits keeps every
    /// digit and `1E2` stays `1E2`. Strings are written from their values, with the fewest
    /// escapes (`"\u0041\/"` becomes `"A/"`).
    public func formatted(pretty: Bool) -> [UInt8] {
        var output = JSONOutput(pretty: pretty)
        var index = 0
        write(at: &index, to: &output)
        return output.bytes
    }

    private func write(at index: inout Int, to output: inout JSONOutput) {
        let start = index
        index = tape.indexAfterValue(at: start)
        switch tape.tag(at: start) {
        case .null: output.append("null")
        case .true: output.append("true")
        case .false: output.append("false")
        case .int64, .uint64, .double: output.append(raw: numberText(at: start))
        case .string, .escapedString: output.appendString(string(at: start))
        case .arrayStart:
            output.writeArray(tape.elements(ofArrayAt: start)) { output, element in
                var cursor = element
                write(at: &cursor, to: &output)
            }
        case .objectStart:
            output.writeObject(tape.members(ofObjectAt: start), key: { string(at: $0.key) }) { output, member in
                var cursor = member.value
                write(at: &cursor, to: &output)
            }
        case .arrayEnd, .objectEnd:
            preconditionFailure("a value cannot start with the end of a container")
        }
    }
}

/// The byte buffer both writers fill: layout (commas, indentation) and the escaping rules.
struct JSONOutput {
    private(set) var bytes: [UInt8] = []
    let pretty: Bool
    private var depth = 0

    init(pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(1024)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends bytes that are already JSON text.
    mutating func append(raw text: ArraySlice<UInt8>) {
        bytes.append(contentsOf: text)
    }

    /// Writes the decimal digits of `value` without building a `String`.
    mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendInteger(UInt64(value.magnitude))
        } else {
            appendInteger(UInt64(value))
        }
    }

    mutating func appendInteger(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var remaining = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
    }

    mutating func close(_ bracket: UInt8, empty: Bool) {
        depth -= 1
        if pretty && !empty { newline() }
        bytes.append(bracket)
    }

    /// Writes `[`, each element after its separator, then `]`.
    mutating func writeArray<S: Sequence, Failure: Error>(
        _ elements: S, _ writeElement: (inout JSONOutput, S.Element) throws(Failure) -> Void
    ) throws(Failure) {
        open(UInt8(ascii: "["))
        var first = true
        for element in elements {
            separate(first: first)
            first = false
            try writeElement(&self, element)
        }
        close(UInt8(ascii: "]"), empty: first)
    }

    /// Writes `{`, each member's key and value after its separator, then `}`.
    mutating func writeObject<S: Sequence, Failure: Error>(
        _ members: S, key: (S.Element) -> String, _ writeValue: (inout JSONOutput, S.Element) throws(Failure) -> Void
    ) throws(Failure) {
        open(UInt8(ascii: "{"))
        var first = true
        for member in members {
            separate(first: first)
            first = false
            appendKey(key(member))
            try writeValue(&self, member)
        }
        close(UInt8(ascii: "}"), empty: first)
    }

    /// Before a member: a comma unless it is the first, and in pretty mode a new indented line.
    mutating func separate(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline() }
    }

    mutating func appendKey(_ key: String) {
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    mutating func appendDouble(_ number: Double) throws(JSONWriterError) {
        guard number.isFinite else { throw .nonFiniteNumber(number) }
        // Swift's description is the shortest text that round-trips ("1.0", "0.1", "1e-07").
        bytes.append(contentsOf: number.description.utf8)
    }

    mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Copy runs that need no escaping in one go; escape the bytes between them.
            var runStart = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                appendEscaped(byte)
                runStart = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
            ])
        }
    }
}

import Foundation

/// HTTP header fields in the order they came, looked up without regard to case.
public struct HTTPHeaderFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One field.
    public struct Field: Sendable, Equatable {
        /// The name as sent.
        public var name: String
        /// The value as sent.
        public var value: String

        /// A field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Fields in this order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Fields from literal pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, if any.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Adds a field after the others.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// One `name: value` per line.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end: HTTP's optional whitespace (RFC 9110 §5.6.3)
    /// around a field value or a list element. On the characters themselves, because
    /// Foundation's `trimmingCharacters(in:)` is slow on Linux and this runs for every response.
    func trimmingHTTPSpaces() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }

    /// Whether this is one or more ASCII digits and nothing else: HTTP's numbers (`1*DIGIT`,
    /// RFC 9110 §8.6, RFC 9111 §1.2.2), which `Int(_:)` alone would also read with a sign.
    var isASCIIDigits: Bool {
        !isEmpty && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Equality ignoring ASCII case, as header names compare: names are ASCII tokens
    /// (RFC 9110 §5.1), so other bytes must match exactly. Byte-wise, because this runs for
    /// every header of every response and Foundation's `caseInsensitiveCompare` is far slower.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return zip(utf8, other.utf8).allSatisfy { $0 == $1 || ($0 | 0x20 == $1 | 0x20 && ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }
    }
}

/// The parsed form of a JSON text: one flat run of 64-bit words, in document order.
///
/// Each value starts with a word whose top byte is a ``Tag`` and whose low 56 bits are a payload:
///
/// | value | words |
/// |---|---|
/// | `null`, `true`, `false` | the tag |
/// | integer, unsigned integer, double | the tag with the byte offset of the number's text in the input, then the 64-bit value |
/// | string | the tag with the byte offset of the contents in the input, then the byte length |
/// | array, object | a start word whose payload is the index of the end word; the members; an end word whose payload is the member count |
///
/// Skipping a container is O(1): jump past its end word. Strings stay in the input until asked
/// for; those without escapes are read straight from it.
///
/// `@unchecked Sendable`: the words live in a ``JSONTapeStorage`` that only the parser writes,
/// before the tape exists; a tape never changes, so it may be read from any thread.
struct JSONTape: JSONTapeNavigation, @unchecked Sendable {
    /// The kind of a value. The raw values are the declaration order, which is also how Swift
    /// stores a case, so ``JSONTapeNavigation/tag(at:)`` can turn a byte into a tag without a table.
    enum Tag: UInt8, CaseIterable {
        case null = 0
        case `true`, `false`, int64, uint64, double, string, escapedString
        case arrayStart, arrayEnd, objectStart, objectEnd
    }

    static let payloadMask: UInt64 = (1 << 56) - 1

    @inline(__always)
    static func word(_ tag: Tag, _ payload: UInt64 = 0) -> UInt64 {
        UInt64(tag.rawValue) << 56 | payload
    }

    private let storage: JSONTapeStorage
    /// The number of words.
    let count: Int

    /// A tape over the words written to `storage`.
    init(storage: JSONTapeStorage) {
        self.storage = storage
        count = storage.header
    }

    /// The word at `index`.
    @inline(__always)
    subscript(index: Int) -> UInt64 {
        precondition(index >= 0 && index < count, "tape index out of range")
        return storage.withUnsafeMutablePointerToElements { $0[index] }
    }

    /// Calls `body` with a view of the words that retains nothing; the view must not be used
    /// after `body` returns.
    func withWords<R, E: Error>(_ body: (UnsafeBufferPointer<UInt64>) throws(E) -> R) throws(E) -> R {
        // The words sit inside `storage`, which `self` keeps alive for the call.
        let words = storage.withUnsafeMutablePointerToElements { UnsafeBufferPointer(start: $0, count: count) }
        return try withExtendedLifetime(storage) { () throws(E) -> R in try body(words) }
    }
}

/// Finding one's way in tape words: the parts shared by the owning ``JSONTape`` and the
/// borrowed ``TapeView`` that decoding reads through.
protocol JSONTapeNavigation {
    /// The word at `index`.
    subscript(index: Int) -> UInt64 { get }
}

extension JSONTapeNavigation {
    /// The tag of the word at `index`.
    @inline(__always)
    func tag(at index: Int) -> JSONTape.Tag {
        let raw = UInt8(truncatingIfNeeded: self[index] >> 56)
        precondition(raw < JSONTape.Tag.objectEnd.rawValue + 1, "not a tape tag")
        // Checked above: a declared case, stored as its raw value (see `Tag`).
        return unsafeBitCast(raw, to: JSONTape.Tag.self)
    }

    /// The low 56 bits of the word at `index`.
    @inline(__always)
    func payload(at index: Int) -> UInt64 {
        self[index] & JSONTape.payloadMask
    }

    /// The index just past the value that starts at `index`.
    func indexAfterValue(at index: Int) -> Int {
        switch tag(at: index) {
        case .null, .true, .false: index + 1
        case .int64, .uint64, .double, .string, .escapedString: index + 2
        case .arrayStart, .objectStart: Int(payload(at: index)) + 1
        case .arrayEnd, .objectEnd: index + 1
        }
    }

    /// The tape indices of the elements of the array that starts at `index`.
    func elements(ofArrayAt index: Int) -> some Sequence<Int> {
        let end = Int(payload(at: index))
        return sequence(first: index + 1) { indexAfterValue(at: $0) }.prefix { $0 < end }
    }

    /// The tape indices of each member's key and value in the object that starts at `index`.
    func members(ofObjectAt index: Int) -> some Sequence<(key: Int, value: Int)> {
        let end = Int(payload(at: index))
        return sequence(first: index + 1) { indexAfterValue(at: $0 + 2) }.prefix { $0 < end }.lazy.map { ($0, $0 + 2) }
    }

    /// The member count of the container that starts at `index`.
    func count(ofContainerAt index: Int) -> Int {
        Int(payload(at: Int(payload(at: index))))
    }
}

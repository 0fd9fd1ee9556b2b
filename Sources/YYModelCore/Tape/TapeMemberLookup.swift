/// Finds the members of one JSON object on the tape by their key bytes; both model paths
/// (`@Model`'s ``_TapeObject`` and the Codable ``ObjectContainer``) look members up this way.
///
/// Objects of up to 8 members are scanned whole, in document order, so a repeated key resolves
/// to its last occurrence. Larger ones are scanned from the member after the last match, wrapping
/// around, and stop at the first match: a model read in the order its JSON was written finds each
/// key at once, with no table built (keys of real API objects do not repeat).
///
/// - Complexity: a lookup is O(m) key comparisons for an object of m members at worst; O(1) when
///   members are read in document order, as generated models read them.
struct TapeMemberLookup {
    let view: TapeView
    /// The tape index of the object's start word.
    let start: Int
    /// The tape index of the object's end word.
    let end: Int
    /// How many members the object has (kept in its end word, read once: every lookup needs it).
    let memberCount: Int
    /// Where the next scan of a large object starts: the key after the last match.
    private var cursor: Int

    init(view: TapeView, start: Int) {
        self.view = view
        self.start = start
        end = Int(view.payload(at: start))
        memberCount = Int(view.payload(at: end))
        cursor = start + 1
    }

    /// The tape index of the value for `key` (its UTF-8 bytes), or `nil`.
    mutating func valueIndex(of key: UnsafeRawBufferPointer) -> Int? {
        var found: Int?
        if memberCount <= 8 {
            var position = start + 1
            while position < end {
                let value = position + 2
                if view.string(at: position, equals: key) { found = value }
                position = view.indexAfterValue(at: value)
            }
        } else {
            var position = cursor
            for _ in 0..<memberCount {
                if position >= end { position = start + 1 }
                let value = position + 2
                if view.string(at: position, equals: key) {
                    found = value
                    break
                }
                position = view.indexAfterValue(at: value)
            }
        }
        if let found { cursor = view.indexAfterValue(at: found) }
        return found
    }

    /// ``valueIndex(of:)`` for a key given as a `String`.
    mutating func valueIndex(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { valueIndex(of: UnsafeRawBufferPointer($0)) }
    }
}

/// Appends words to a ``JSONTapeStorage``, growing it as needed: the parser's output.
///
/// It keeps the block's element pointer and capacity at hand, so an append is one comparison and
/// one store (an `Array` append also checks uniqueness, a call into the runtime, on every value).
struct JSONTapeWriter {
    private var storage: JSONTapeStorage
    /// The words of `storage`; valid while `storage` is held, which this writer does.
    private var words: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    /// The number of words written.
    private(set) var count = 0

    init(capacity: Int) {
        storage = JSONTapeStorage.make(capacity: max(capacity, 16))
        words = storage.withUnsafeMutablePointerToElements { $0 }
        self.capacity = storage.capacity
    }

    /// Appends one word.
    @inline(__always)
    mutating func append(_ word: UInt64) {
        if count == capacity { grow() }
        words[count] = word
        count += 1
    }

    /// Appends two words (a tag and its value).
    @inline(__always)
    mutating func append(_ first: UInt64, _ second: UInt64) {
        if count + 2 > capacity { grow() }
        words[count] = first
        words[count + 1] = second
        count += 2
    }

    /// Replaces the word at `index`, which must have been written (container starts are patched
    /// when the container closes).
    @inline(__always)
    mutating func replace(at index: Int, with word: UInt64) {
        precondition(index >= 0 && index < count, "tape index out of range")
        words[index] = word
    }

    /// Doubles the capacity: a new block, the words copied over.
    private mutating func grow() {
        let larger = JSONTapeStorage.make(capacity: capacity * 2)
        let destination = larger.withUnsafeMutablePointerToElements { $0 }
        destination.update(from: words, count: count)
        storage = larger
        words = destination
        capacity = larger.capacity
    }

    /// The finished tape. The writer must not be used afterwards.
    consuming func finish() -> JSONTape {
        storage.header = count
        return JSONTape(storage: storage)
    }
}

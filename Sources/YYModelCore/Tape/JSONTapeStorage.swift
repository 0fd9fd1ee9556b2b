/// The heap block behind a ``JSONTape``: the number of words written (the header), then the words.
///
/// The parser is the only writer, through ``JSONTapeWriter``; once it hands the tape out nothing
/// writes to the block again (see ``JSONTape``'s `Sendable` conformance).
final class JSONTapeStorage: ManagedBuffer<Int, UInt64> {
    /// A block with room for at least `capacity` words, none written yet.
    static func make(capacity: Int) -> JSONTapeStorage {
        // `create` builds an instance of the class it is called on; the downcast cannot fail.
        unsafeDowncast(create(minimumCapacity: capacity) { _ in 0 }, to: JSONTapeStorage.self)
    }
}

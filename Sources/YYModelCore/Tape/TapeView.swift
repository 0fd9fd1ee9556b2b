#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed document seen through pointers: what the decoders read, since copying a view retains
/// nothing (copying a ``JSONTape`` or the input array retains their storage).
///
/// A view is valid only while the ``JSONDocument`` it was taken from is alive: its words live in
/// the tape's storage and its input in the document's byte array, neither of which moves or
/// changes while the document exists. ``JSONDocument/withView(_:)`` lends one for a call;
/// ``TapeReader`` keeps the document next to the view it reads through.
struct TapeView: JSONTapeNavigation {
    /// The tape's words.
    let words: UnsafeBufferPointer<UInt64>
    /// The JSON text.
    let input: UnsafeBufferPointer<UInt8>

    /// The word at `index`.
    @inline(__always)
    subscript(index: Int) -> UInt64 {
        precondition(index >= 0 && index < words.count, "tape index out of range")
        return words[index]
    }

    /// The bytes between the quotes of the string whose entry is at `index`, escapes undecoded.
    @inline(__always)
    func rawBytes(ofStringAt index: Int) -> UnsafeBufferPointer<UInt8> {
        let offset = Int(payload(at: index))
        let length = Int(self[index + 1])
        precondition(offset >= 0 && length >= 0 && offset + length <= input.count, "string outside the input")
        return UnsafeBufferPointer(rebasing: input[offset..<(offset + length)])
    }

    /// The string whose entry is at `index`, unescaped.
    func string(at index: Int) -> String {
        JSONDocument.string(rawBytes(ofStringAt: index), escaped: tag(at: index) == .escapedString)
    }

    /// Whether the string at `index` (a key) is exactly the bytes `key`.
    @inline(__always)
    func string(at index: Int, equals key: UnsafeRawBufferPointer) -> Bool {
        if tag(at: index) == .escapedString {
            // Bytes, as for unescaped keys (String's == would apply canonical equivalence).
            return string(at: index).utf8.elementsEqual(key)
        }
        let raw = rawBytes(ofStringAt: index)
        guard raw.count == key.count else { return false }
        return raw.isEmpty || memcmp(raw.baseAddress!, key.baseAddress!, raw.count) == 0
    }
}

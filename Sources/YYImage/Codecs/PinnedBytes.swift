/// A copy of a file's bytes at an address that stays put for the copy's lifetime, for C decoders
/// that keep a pointer to their input between calls (libavif, libheif). Swift arrays promise a
/// stable address only inside `withUnsafeBufferPointer`.
final class PinnedBytes: @unchecked Sendable {
    /// The bytes; read-only after `init`, so sharing across threads is safe.
    let buffer: UnsafeRawBufferPointer

    /// A pinned copy of `bytes`.
    init(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        buffer = UnsafeRawBufferPointer(rebasing: storage[0..<bytes.count])
    }

    deinit {
        UnsafeMutableRawPointer(mutating: buffer.baseAddress)?.deallocate()
    }
}

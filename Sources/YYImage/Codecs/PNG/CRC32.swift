internal import CPNG

/// The CRC-32 of PNG chunks (ISO 3309, the same as zlib's), computed by zlib.
enum CRC32 {
    /// The CRC of `bytes`, continuing from `crc` (start from 0).
    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var value = UInt(crc)
        var start = bytes.baseAddress
        var remaining = bytes.count
        // zlib takes 32-bit lengths.
        while remaining > 0, let pointer = start {
            let chunk = min(remaining, Int(UInt32.max >> 1))
            value = crc32(value, pointer, UInt32(chunk))
            start = pointer + chunk
            remaining -= chunk
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The CRC of an array slice.
    static func checksum(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { checksum($0, continuing: crc) }
    }
}

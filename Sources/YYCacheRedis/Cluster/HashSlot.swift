import NIOCore

/// Redis Cluster's key → slot mapping: CRC16 (XMODEM) of the key, or of its hash tag, modulo 16384.
///
/// A hash tag is the part between the first `{` and the first `}` after it, when that part is not
/// empty: `{user1000}.following` and `{user1000}.followers` share a slot. (Redis Cluster
/// specification, "Keys distribution model".)
enum HashSlot {
    /// The number of slots of a Redis Cluster.
    static let count = 16384

    /// The slot of `key`.
    static func of(_ key: ByteBuffer) -> Int {
        key.withUnsafeReadableBytes { bytes in
            Int(crc16(hashedPart(of: bytes)) & UInt16(count - 1))
        }
    }

    /// The bytes the slot is computed from: the hash tag if there is one, else the whole key.
    private static func hashedPart(of key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let open = key.firstIndex(of: UInt8(ascii: "{")),
            let close = key[(open + 1)...].firstIndex(of: UInt8(ascii: "}")),
            close > open + 1
        else { return key }
        return UnsafeRawBufferPointer(rebasing: key[(open + 1)..<close])
    }

    /// CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, no reflection.
    static func crc16(_ bytes: UnsafeRawBufferPointer) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
        }
        return crc
    }

    /// The CRC of each byte value, shifted into the high byte.
    private static let table: [UInt16] = (0..<256).map { value in
        var crc = UInt16(value) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        return crc
    }
}

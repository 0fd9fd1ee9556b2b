import Foundation
import NIOCore

/// The header in front of every value the tier stores, so that a value some other program wrote,
/// one cut short, or one whose bytes changed is recognised and treated as a miss, never returned.
///
/// Layout (28 bytes, little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | `"YYC"` and the format version (1) |
/// | 4 | 8 | expiration, milliseconds since 1970 (0: never), so a hit keeps its remaining time |
/// | 12 | 8 | payload length |
/// | 20 | 8 | XXH64 of the payload |
/// | 28 | … | payload |
enum StoredValueFrame {
    static let magic: UInt32 = 0x0143_5959  // "YYC\u{1}" read as a little-endian integer
    static let headerSize = 28
    /// ``magic`` as stored: the first four bytes of every value this tier writes.
    static let magicBytes: ByteBuffer = {
        var bytes = ByteBuffer()
        bytes.writeInteger(magic, endianness: .little)
        return bytes
    }()

    /// Why stored bytes were refused.
    enum Defect: Error, Equatable, CustomStringConvertible {
        /// Not written by this tier (or by another format version).
        case foreign
        /// Shorter or longer than its header says.
        case wrongLength(expected: UInt64, found: Int)
        /// The checksum does not match the payload.
        case checksumMismatch

        var description: String {
            switch self {
            case .foreign: "not a value this tier wrote (no YYC1 header)"
            case .wrongLength(let expected, let found): "the header says \(expected) bytes, \(found) are stored"
            case .checksumMismatch: "the checksum does not match the bytes"
            }
        }
    }

    /// `payload` with its header, ready to store.
    static func encode(_ payload: Data, expiresAtMilliseconds: Int64?) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(headerSize + payload.count)
        buffer.writeInteger(magic, endianness: .little)
        buffer.writeInteger(expiresAtMilliseconds ?? 0, endianness: .little)
        buffer.writeInteger(UInt64(payload.count), endianness: .little)
        buffer.writeInteger(payload.withUnsafeBytes { XXHash64.hash($0) }, endianness: .little)
        buffer.writeBytes(payload)
        return buffer
    }

    /// The payload and expiration of stored bytes, after checking header, length and checksum.
    static func decode(_ stored: ByteBuffer) throws(Defect) -> (payload: Data, expiresAtMilliseconds: Int64?) {
        let start = stored.readerIndex
        guard stored.readableBytes >= headerSize,
            stored.getInteger(at: start, endianness: .little, as: UInt32.self) == magic,
            let expiration = stored.getInteger(at: start + 4, endianness: .little, as: Int64.self),
            let length = stored.getInteger(at: start + 12, endianness: .little, as: UInt64.self),
            let checksum = stored.getInteger(at: start + 20, endianness: .little, as: UInt64.self)
        else { throw .foreign }
        let payloadSize = stored.readableBytes - headerSize
        guard length == UInt64(payloadSize) else { throw .wrongLength(expected: length, found: payloadSize) }
        let payload = stored.getSlice(at: start + headerSize, length: payloadSize)!
        guard payload.withUnsafeReadableBytes({ XXHash64.hash($0) }) == checksum else { throw .checksumMismatch }
        return (Data(payload.readableBytesView), expiration == 0 ? nil : expiration)
    }
}

import Foundation
import NIOCore
import Testing

@testable import YYCacheRedis

@Suite struct StoredValueFrameTests {
    let payload = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 7) })

    @Test func aFrameReadsBackItsPayloadAndExpiration() throws {
        let frame = StoredValueFrame.encode(payload, expiresAtMilliseconds: 1_700_000_000_123)
        #expect(frame.readableBytes == payload.count + StoredValueFrame.headerSize)
        let decoded = try StoredValueFrame.decode(frame)
        #expect(decoded.payload == payload)
        #expect(decoded.expiresAtMilliseconds == 1_700_000_000_123)
        #expect(try StoredValueFrame.decode(StoredValueFrame.encode(Data(), expiresAtMilliseconds: nil)) == (Data(), nil))
    }

    @Test func foreignBytesAreRefused() {
        #expect(throws: StoredValueFrame.Defect.foreign) { try StoredValueFrame.decode(ByteBuffer(string: "plain value written by someone else")) }
        #expect(throws: StoredValueFrame.Defect.foreign) { try StoredValueFrame.decode(ByteBuffer(string: "YYC")) }
    }

    @Test func aTruncatedOrExtendedFrameIsRefused() {
        var frame = StoredValueFrame.encode(payload, expiresAtMilliseconds: nil)
        let truncated = frame.getSlice(at: 0, length: frame.readableBytes - 1)!
        #expect(throws: StoredValueFrame.Defect.wrongLength(expected: 1_000, found: 999)) { try StoredValueFrame.decode(truncated) }
        frame.writeString("x")
        #expect(throws: StoredValueFrame.Defect.wrongLength(expected: 1_000, found: 1_001)) { try StoredValueFrame.decode(frame) }
    }

    @Test func everySingleBitFlipInThePayloadIsCaught() {
        let frame = StoredValueFrame.encode(payload, expiresAtMilliseconds: nil)
        for byte in stride(from: StoredValueFrame.headerSize, to: frame.readableBytes, by: 37) {
            for bit in 0..<8 {
                var corrupt = frame
                corrupt.setInteger(frame.getInteger(at: byte, as: UInt8.self)! ^ (1 << bit), at: byte)
                #expect(throws: StoredValueFrame.Defect.checksumMismatch) { try StoredValueFrame.decode(corrupt) }
            }
        }
    }
}

import Testing

@testable import YYCacheRedis

@Suite struct XXHash64Tests {
    /// Hashes of the reference implementation (Python's `xxhash` package, which wraps the C
    /// library) for inputs that take every path: empty, the 1-, 4- and 8-byte tails, one 32-byte stripe.
    @Test(arguments: [
        (0, 0xEF46_DB37_51D8_E999 as UInt64, 0xAC75_FDA2_929B_17EF as UInt64),
        (1, 0xD24E_C4F1_A98C_6E5B, 0x393D_A8B7_8992_279B),
        (31, 0xC346_D2B5_9B4D_8EE1, 0x7196_9C89_A30A_986A),
        (32, 0xCBF5_9C51_16FF_32B4, 0x7181_3547_74E0_D600),
        (100, 0x6AC1_E580_3216_6597, 0x8832_442A_8828_4F11),
    ])
    func matchesTheReferenceForBytesZeroToN(length: Int, unseeded: UInt64, seeded: UInt64) {
        let bytes: [UInt8] = length == 1 ? [UInt8(ascii: "a")] : (0..<length).map { UInt8($0) }
        #expect(bytes.withUnsafeBytes { XXHash64.hash($0) } == unseeded)
        #expect(bytes.withUnsafeBytes { XXHash64.hash($0, seed: 2_654_435_761) } == seeded)
    }

    @Test func matchesTheReferenceForText() {
        #expect(XXHash64.hash("abc") == 0x44BC_2CF5_AD77_0999)
        #expect(XXHash64.hash("The quick brown fox jumps over the lazy dog") == 0x0B24_2D36_1FDA_71BC)
    }

    @Test func readsUnalignedInputAtEveryOffset() {
        let bytes = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for offset in 0..<8 {
            let slice = Array(bytes[offset..<(offset + 100)])
            let copied = slice.withUnsafeBytes { XXHash64.hash($0) }
            let inPlace = bytes.withUnsafeBytes { XXHash64.hash(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + 100)])) }
            #expect(copied == inPlace, "offset \(offset)")
        }
    }
}

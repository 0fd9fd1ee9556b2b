import Testing

@testable import YYImage

/// `EXIF.copyrightOnly(inTIFF:)`: the copyright notice and artist that stripping keeps.
@Suite struct EXIFCopyrightTests {
    /// A big-endian TIFF with IFD0 make (inline "Cam"), artist (inline "Ada"), copyright
    /// ("(c) Ada", at an offset) and orientation 6.
    static let bigEndian: [UInt8] = {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 4]
        tiff += [0x01, 0x0F, 0, 2, 0, 0, 0, 4] + Array("Cam".utf8) + [0]
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]
        tiff += [0x01, 0x3B, 0, 2, 0, 0, 0, 4] + Array("Ada".utf8) + [0]
        let valueOffset = 8 + 2 + 4 * 12 + 4
        tiff += [0x82, 0x98, 0, 2, 0, 0, 0, 8, 0, 0, 0, UInt8(valueOffset)]
        tiff += [0, 0, 0, 0] + Array("(c) Ada".utf8) + [0]
        return tiff
    }()

    @Test func keepsOnlyTheCopyrightAndArtistInANewLittleEndianTIFF() throws {
        let kept = try #require(EXIF.copyrightOnly(inTIFF: Self.bigEndian))
        #expect(Array(kept.prefix(4)) == [0x49, 0x49, 42, 0])
        #expect(EXIF.orientation(inTIFF: kept) == .up)  // the orientation tag went too
        let text = String(decoding: kept, as: UTF8.self)
        #expect(text.contains("Ada") && text.contains("(c) Ada") && !text.contains("Cam"))
        // Reading it again gives the same two tags.
        #expect(EXIF.copyrightOnly(inTIFF: kept) == kept)
    }

    @Test func noCopyrightOrUnreadableDataGivesNothing() {
        #expect(EXIF.copyrightOnly(inTIFF: DecoderOptionsTests.exif(orientation: 6)) == nil)
        #expect(EXIF.copyrightOnly(inTIFF: []) == nil)
        #expect(EXIF.copyrightOnly(inTIFF: Array("MM".utf8) + [0, 42, 0xFF, 0xFF, 0xFF, 0xFF]) == nil)
        // A copyright whose value points past the end is skipped, not read.
        var broken = Self.bigEndian
        broken[8 + 2 + 3 * 12 + 11] = 0xF0
        let kept = EXIF.copyrightOnly(inTIFF: broken).map { String(decoding: $0, as: UTF8.self) }
        #expect(kept?.contains("(c) Ada") == false && kept?.contains("Ada") == true)
    }
}

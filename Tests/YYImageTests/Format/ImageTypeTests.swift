import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

struct ImageTypeTests {
    @Test(
        arguments: [
            ([0x4D, 0x4D, 0x00, 0x2A], ImageType.tiff), ([0x49, 0x49, 0x2A, 0x00], .tiff), ([0, 0, 1, 0], .ico), ([0, 0, 2, 0], .ico),
            (Array("icns".utf8), .icns), (Array("GIF87a".utf8), .gif), (Array("GIF89a".utf8), .gif), (PNGChunk.signature, .png),
            (Array("RIFF\u{1}\0\0\0WEBPVP8 ".utf8), .webp), ([0xFF, 0x4F, 0xFF, 0x51], .jpeg2000),
            ([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .jpeg2000), ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
            (Array("BM".utf8) + [0, 0], .bmp), ([0xFF, 0x0A, 0xFA], .jpegXL),
            ([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .jpegXL),
            ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8), .avif),
            ([0, 0, 0, 0x18] + Array("ftypavis".utf8) + [0, 0, 0, 0] + Array("avismsf1".utf8), .avif),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8), .heic),
            // A generic major brand: the compatible brands decide.
            ([0, 0, 0, 0x1C] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1miafheic".utf8), .heic),
            ([0, 0, 0, 0x1C] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("mif1miafavif".utf8), .avif),
        ] as [([UInt8], ImageType)])
    func typesAreRecognisedFromTheirFirstBytes(_ bytes: [UInt8], _ type: ImageType) {
        #expect(ImageType(sniffing: bytes + [UInt8](repeating: 0, count: 16)) == type)
    }

    @Test func unknownAndTooShortDataIsNoType() {
        #expect(ImageType(sniffing: Array("not an image at all".utf8)) == nil)
        #expect(ImageType(sniffing: [0xFF, 0xD8]) == nil)
        #expect(ImageType(sniffing: [0, 0, 0, 0x18] + Array("ftyp".utf8)) == nil)
        #expect(ImageType(sniffing: [0, 0, 0, 0x18] + Array("ftypav".utf8)) == nil)
        #expect(ImageType(sniffing: [UInt8]()) == nil)
        #expect(ImageType(sniffing: Array("RIFF\0\0\0\0WAVE".utf8)) == nil)
        // An ISO media file that is no image (an MP4 video).
        #expect(ImageType(sniffing: [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)) == nil)
    }

    @Test(.needsSharedTestData)
    func everyYYKitSampleIsRecognisedByContentWhateverItsNameSays() throws {
        #expect(ImageType(sniffing: try Samples.data("misc/Weibo@3x.jpg")) == .png)  // PNG bytes named .jpg
        #expect(ImageType(sniffing: try Samples.data("misc/Twitter@3x.jpg")) == .jpeg)
        for (file, type) in [("demo/cube@2x.png", ImageType.png), ("demo/nyancat@2x.webp", .webp), ("compare/ermilio.gif", .gif)] {
            #expect(ImageType(sniffing: try Samples.data(file)) == type)
        }
    }

    @Test func fileExtensionsMapToTypesAndBack() {
        #expect(ImageType(fileExtension: "JPEG") == .jpeg)
        #expect(ImageType(fileExtension: "apng") == .png)
        #expect(ImageType(fileExtension: "cur") == .ico)
        #expect(ImageType(fileExtension: "txt") == nil)
        #expect(ImageType(fileExtension: "HEIF") == .heic)
        #expect(ImageType(fileExtension: "tif") == .tiff)
        for type in ImageType.allCases { #expect(ImageType(fileExtension: type.fileExtension) == type) }
    }
}

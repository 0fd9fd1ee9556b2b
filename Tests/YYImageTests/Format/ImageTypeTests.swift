import Foundation
import Testing
import TestSupport
import TestTraits
@testable import YYImage

struct ImageTypeTests {
    @Test(arguments: [
        ([0x4D, 0x4D, 0x00, 0x2A], ImageType.tiff), ([0x49, 0x49, 0x2A, 0x00], .tiff), ([0, 0, 1, 0], .ico), ([0, 0, 2, 0], .ico),
        (Array("icns".utf8), .icns), (Array("GIF87a".utf8), .gif), (Array("GIF89a".utf8), .gif), (PNGChunk.signature, .png),
        (Array("RIFF\u{1}\0\0\0WEBPVP8 ".utf8), .webp), ([0xFF, 0x4F, 0xFF, 0x51], .jpeg2000),
        ([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .jpeg2000), ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
        (Array("BM".utf8) + [0, 0], .bmp),
    ] as [([UInt8], ImageType)])
    func typesAreRecognisedFromTheirFirstBytes(_ bytes: [UInt8], _ type: ImageType) {
        #expect(ImageType(sniffing: bytes + [UInt8](repeating: 0, count: 16)) == type)
    }

    @Test func unknownAndTooShortDataIsNoType() {
        #expect(ImageType(sniffing: Array("not an image at all".utf8)) == nil)
        #expect(ImageType(sniffing: [0xFF, 0xD8]) == nil)
        #expect(ImageType(sniffing: [UInt8]()) == nil)
        #expect(ImageType(sniffing: Array("RIFF\0\0\0\0WAVE".utf8)) == nil)
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
        for type in ImageType.allCases { #expect(ImageType(fileExtension: type.fileExtension) == type) }
    }
}

import Foundation
import TestSupport
import Testing

@testable import YYImage

enum ICNSReference {
    static var isAvailable: Bool { FormatReference.has("png2icns", "icns2png") }
}

/// ICNS against libicns's `png2icns` (which writes RLE RGB with masks up to 128 pixels and
/// JPEG 2000 above) and `icns2png`.
@Suite(.enabled(if: ICNSReference.isAvailable, "needs png2icns, icns2png (icnsutils) and Pillow: run scripts/setup --reference"))
struct ICNSCodecTests {
    let folder = TemporaryDirectory("icns")

    /// A square icon of `side` pixels: the test picture stretched, with its soft alpha.
    static func icon(_ side: Int) throws -> Bitmap {
        try Resize(width: side, height: side, fit: .fill, enlarge: true).apply(to: FormatReference.picture(alpha: true))
    }

    /// icns2png's picture of every element of `path`, by side.
    func extracted(_ path: String) throws -> [Int: ReferenceFrame] {
        let out = folder.appending("extracted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FormatReference.run("icns2png", ["-x", "-o", out, path])
        var pictures: [Int: ReferenceFrame] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out) where name.hasSuffix(".png") {
            let frame = try FormatReference.pillow("\(out)/\(name)").frame
            pictures[frame.width] = frame
        }
        return pictures
    }

    @Test func everyElementOfPng2icnsIsAPageLargestFirst() throws {
        let sides = [16, 32, 48, 128, 256, 512]
        var paths: [String] = []
        for side in sides {
            let path = folder.appending("icon-\(side).png")
            try FormatReference.writePNG(try Self.icon(side), to: path)
            paths.append(path)
        }
        let icns = folder.appending("icon.icns")
        try FormatReference.run("png2icns", [icns] + paths)
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: icns)))
        #expect(decoder.type == .icns)
        #expect(decoder.frameCount == 1)
        #expect(decoder.pageCount == sides.count)
        #expect(decoder.canvasWidth == 512)
        let reference = try extracted(icns)
        for index in 0..<decoder.pageCount {
            let page = try decoder.page(at: index)
            #expect(page.width == sides.reversed()[index], "page \(index)")
            // RLE RGB pages and JPEG 2000 pages are exact: both are lossless here.
            #expect(maxChannelDifference(page, try #require(reference[page.width])) == 0, "\(page.width) px")
        }
    }

    @Test func oneImageBecomesTheStandardSetThatIcns2pngReads() throws {
        let icon = try Self.icon(256)
        let data = try ImageEncoder.encode(icon, as: .icns)
        let path = folder.appending("ours.icns")
        try data.write(to: URL(fileURLWithPath: path))
        let listing = try FormatReference.run("icns2png", ["-l", path]).text
        for type in ["icp4", "icp5", "icp6", "ic07", "ic08", "ic11", "ic12", "ic13"] {
            #expect(listing.contains("'\(type)'"), "\(type) listed")
        }
        let decoder = try ImageDecoder(data: data)
        #expect(decoder.canvasWidth == 256)
        #expect(maxChannelDifference(try decoder.frame(at: 0), icon) == 0)
        // libicns 0.8 lists the newer types but extracts only ic08; Pillow reads the largest.
        let reference = try extracted(path)
        #expect(maxChannelDifference(icon, try #require(reference[256])) == 0)
        #expect(maxChannelDifference(icon, try PillowReference.decode(path).frames[0]) == 0)
    }

    @Test func severalImagesAreWrittenAsTheyAreAndOddSizesAreRefused() throws {
        var encoder = ImageEncoder(type: .icns)
        let small = try Self.icon(32), large = try Self.icon(128)
        encoder.addFrame(small)
        encoder.addFrame(large)
        let decoder = try ImageDecoder(data: try encoder.encode())
        #expect(decoder.pageCount == 3)  // icp5 and ic11 (32 px, 1x and 2x) and ic07
        #expect(maxChannelDifference(try decoder.page(at: 0), large) == 0)
        #expect(maxChannelDifference(try decoder.page(at: 2), small) == 0)

        var odd = ImageEncoder(type: .icns)
        odd.addFrame(small)
        odd.addFrame(FormatReference.picture())
        #expect(throws: ImageError.self) { try odd.encode() }
    }

    @Test func elementsLongerThanTheFileAreTypedErrors() throws {
        var bytes = Array("icns".utf8) + [0, 0, 0, 24] + Array("ic07".utf8) + [0, 0, 0x10, 0] + [0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0]
        #expect(throws: ImageError.self) { try ImageDecoder(data: Data(bytes)) }
        bytes = Array("icns".utf8) + [0, 0, 0, 16] + Array("is32".utf8) + [0, 0, 0, 4]
        #expect(throws: ImageError.self) { try ImageDecoder(data: Data(bytes)) }
        // An RLE element that ends early.
        bytes = Array("icns".utf8) + [0, 0, 0, 20] + Array("is32".utf8) + [0, 0, 0, 12] + [0x85, 7, 0x80, 1]
        let decoder = try ImageDecoder(data: Data(bytes))
        #expect(throws: ImageError.malformed(.icns, "element 'is32' ends inside its run-length data")) { try decoder.frame(at: 0) }
    }
}

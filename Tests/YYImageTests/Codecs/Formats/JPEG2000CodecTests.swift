import Foundation
import TestSupport
import Testing

@testable import YYImage

enum JPEG2000Reference {
    static var isAvailable: Bool { ImageType.jpeg2000.isDecodable && FormatReference.has("opj_compress", "opj_decompress", "tiffcp") }
}

/// JPEG 2000 against OpenJPEG's own `opj_compress` and `opj_decompress`.
@Suite(.enabled(if: JPEG2000Reference.isAvailable, "needs opj_compress, opj_decompress (libopenjp2-tools) and Pillow: run scripts/setup --reference"))
struct JPEG2000CodecTests {
    let folder = TemporaryDirectory("jp2")

    /// `opj_decompress`'s picture of `path` (with `arguments`, such as `-r 1`).
    func reference(_ path: String, _ arguments: [String] = []) throws -> ReferenceFrame {
        let png = folder.appending("reference-\(UUID().uuidString).png")
        try FormatReference.run("opj_decompress", ["-i", path, "-o", png] + arguments)
        return try FormatReference.pillow(png).frame
    }

    /// A source PNG of the test picture.
    func source(alpha: Bool) throws -> (path: String, bitmap: Bitmap) {
        let bitmap = FormatReference.picture(alpha: alpha)
        let path = folder.appending("source-\(alpha).png")
        try FormatReference.writePNG(bitmap, to: path)
        return (path, bitmap)
    }

    @Test(arguments: [("jp2", false), ("jp2", true), ("j2k", false), ("j2k", true)])
    func losslessFilesMatchOpjDecompressExactly(container: String, alpha: Bool) throws {
        let (png, bitmap) = try source(alpha: alpha)
        let path = folder.appending("lossless-\(alpha).\(container)")
        try FormatReference.run("opj_compress", ["-i", png, "-o", path])
        let ours = try FormatReference.ours(path)
        #expect(maxChannelDifference(ours, try reference(path)) == 0)
        #expect(maxChannelDifference(ours, bitmap) == 0)
    }

    @Test func grayAndSixteenBitFilesAreRoundedToEightBits() throws {
        let png = folder.appending("gray-source.png")
        try FormatReference.writePNG(FormatReference.picture(alpha: false), to: png)
        try PillowReference.formats(["tiffs", png, folder.path])
        for kind in ["gray8", "gray16"] {
            let path = folder.appending("\(kind).jp2")
            try FormatReference.run("opj_compress", ["-i", folder.appending("\(kind).pgm"), "-o", path])
            let ours = try FormatReference.ours(path)
            let expected = try FormatReference.pillow(folder.appending("gray8.tif")).frame
            // gray16 holds gray * 257 plus up to 199, which rounds to gray or gray + 1.
            #expect(maxChannelDifference(ours, expected) <= (kind == "gray16" ? 1 : 0), "\(kind)")
            #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path))).bitDepth == (kind == "gray16" ? 16 : 8))
        }
    }

    @Test func lossyFilesMatchOpjDecompressExactly() throws {
        let (png, _) = try source(alpha: false)
        let path = folder.appending("lossy.jp2")
        try FormatReference.run("opj_compress", ["-i", png, "-o", path, "-r", "20", "-I"])
        #expect(maxChannelDifference(try FormatReference.ours(path), try reference(path)) == 0)
    }

    @Test func shrinkOnLoadDecodesFewerResolutionLevels() throws {
        let picture = FormatReference.picture(width: 400, height: 300, alpha: false)
        let png = folder.appending("large.png")
        try FormatReference.writePNG(picture, to: png)
        let path = folder.appending("large.jp2")
        try FormatReference.run("opj_compress", ["-i", png, "-o", path])
        var options = ImageDecoder.Options()
        options.shrinkOnLoad = 100
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)), options: options)
        let frame = try decoder.frame(at: 0)
        // 400 → 200 → 100: two levels dropped, as opj_decompress -r 2 does.
        #expect(frame.width == 100 && frame.height == 75)
        #expect(maxChannelDifference(frame, try reference(path, ["-r", "2"])) == 0)
    }

    @Test(arguments: [false, true])
    func ourFilesReadBackThroughOpenJPEGAndPillow(alpha: Bool) throws {
        let picture = FormatReference.picture(alpha: alpha)
        var encoder = ImageEncoder(type: .jpeg2000)
        encoder.lossless = true
        encoder.addFrame(picture)
        let path = folder.appending("ours-lossless-\(alpha).jp2")
        try encoder.encode(to: URL(fileURLWithPath: path))
        #expect(maxChannelDifference(picture, try reference(path)) == 0)
        #expect(maxChannelDifference(picture, try PillowReference.decode(path).frames[0]) == 0)

        encoder = ImageEncoder(type: .jpeg2000)
        encoder.quality = 0.8
        encoder.addFrame(picture)
        let lossyPath = folder.appending("ours-lossy-\(alpha).jp2")
        let lossy = try encoder.encode()
        try lossy.write(to: URL(fileURLWithPath: lossyPath))
        let decoded = FormatReference.bitmap(try reference(lossyPath))
        #expect(FormatReference.meanDifference(decoded, picture) < 3)
        #expect(lossy.count < (try ImageEncoder.encode(picture, as: .jpeg2000, quality: 1)).count)
    }
}

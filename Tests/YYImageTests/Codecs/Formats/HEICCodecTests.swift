import Foundation
import TestSupport
import Testing

@testable import YYImage

enum HEICReference {
    static var isAvailable: Bool { ImageType.heic.isDecodable && FormatReference.has("heif-enc", "heif-convert") }
}

/// HEIC against libheif's own `heif-enc` and `heif-convert`.
@Suite(.enabled(if: HEICReference.isAvailable, "needs heif-enc, heif-convert (libheif-examples) and Pillow: run scripts/setup --reference"))
struct HEICCodecTests {
    let folder = TemporaryDirectory("heic")

    func reference(_ path: String) throws -> ReferenceFrame {
        let png = folder.appending("reference-\(UUID().uuidString).png")
        try FormatReference.run("heif-convert", [path, png])
        return try FormatReference.pillow(png).frame
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func filesMatchHeifConvert(alpha: Bool, lossless: Bool) throws {
        let picture = FormatReference.picture(alpha: alpha)
        let png = folder.appending("source-\(alpha).png")
        try FormatReference.writePNG(picture, to: png)
        let path = folder.appending("picture-\(alpha)-\(lossless).heic")
        try FormatReference.run("heif-enc", (lossless ? ["-L"] : ["-q", "60"]) + [png, "-o", path])
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoder.type == .heic)
        let ours = try decoder.frame(at: 0)
        #expect(maxChannelDifference(ours, try reference(path)) == 0)
        #expect(FormatReference.meanDifference(ours, picture) < (lossless ? 1.5 : 6))
    }

    /// HEIC has no encoder of ours, so `ConcurrentCodecTests` cannot make its file: `heif-enc` does.
    @Test func independentDecodersOnManyThreadsAtOnceAllSucceed() throws {
        let png = folder.appending("concurrent.png")
        try FormatReference.writePNG(FormatReference.picture(width: 600, height: 400, alpha: true), to: png)
        let path = folder.appending("concurrent.heic")
        try FormatReference.run("heif-enc", ["-q", "60", png, "-o", path])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let expected = try ImageDecoder(data: data).frame(at: 0)
        #expect(failuresOnManyThreads(24, expecting: expected) { try ImageDecoder(data: data).frame(at: 0) } == [])
    }

    @Test func theFirstEmbeddedThumbnailIsDecodedWhenAsked() throws {
        let png = folder.appending("thumbnailed.png")
        try FormatReference.writePNG(FormatReference.picture(width: 300, height: 200, alpha: false), to: png)
        let path = folder.appending("thumbnailed.heic")
        try FormatReference.run("heif-enc", ["-q", "60", "-t", "60", png, "-o", path])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = ImageDecoder.Options()
        options.usesEmbeddedThumbnail = true
        let thumbnail = try ImageDecoder(data: data, options: options)
        let frame = try thumbnail.frame(at: 0)
        #expect(thumbnail.canvasWidth == 60 && thumbnail.canvasHeight == 40 && frame.width == 60)
        #expect(try ImageDecoder(data: data).frame(at: 0).width == 300)
        // Without a thumbnail, the primary image.
        let plain = folder.appending("plain.heic")
        try FormatReference.run("heif-enc", ["-q", "60", png, "-o", plain])
        #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: plain)), options: options).canvasWidth == 300)
    }

    @Test func heicIsNeverEncoded() {
        #expect(!ImageType.heic.isEncodable)
        #expect(throws: ImageError.unsupportedType(.heic)) {
            try ImageEncoder.encode(FormatReference.picture(), as: .heic)
        }
    }
}

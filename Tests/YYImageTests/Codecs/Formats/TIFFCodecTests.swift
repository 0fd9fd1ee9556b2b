import Foundation
import TestSupport
import Testing

@testable import YYImage

enum TIFFReference {
    static var isAvailable: Bool { ImageType.tiff.isDecodable && FormatReference.has("tiffcp", "tiff2rgba", "tiffset") }
}

/// TIFF against libtiff's own tools: files of every colour type, depth, compression and layout
/// made with Pillow and `tiffcp`, decoded by `tiff2rgba`; our files read back by it and Pillow.
@Suite(.enabled(if: TIFFReference.isAvailable, "needs tiffcp, tiff2rgba, tiffset (libtiff-tools) and Pillow: run scripts/setup --reference"))
struct TIFFCodecTests {
    let folder = TemporaryDirectory("tiff")

    /// The Pillow-made sources, written once per test.
    func sources() throws -> [String] {
        let png = folder.appending("source.png")
        try FormatReference.writePNG(FormatReference.picture(), to: png)
        try PillowReference.formats(["tiffs", png, folder.path])
        return ["gray1", "gray8", "gray16", "palette", "rgb", "rgba", "rgba-associated", "cmyk"]
    }

    /// Expects our decoding of `path` to equal `tiff2rgba`'s, sample for sample. libtiff
    /// premultiplies alpha and Pillow would divide it out again (rounding its own way), so the
    /// colour comes from `tiff2rgba -n` (the same premultiplied raster, its alpha dropped) and
    /// the alpha from the full output; ours is compared premultiplied.
    func expectMatchesReference(_ path: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let full = folder.appending("reference-\(UUID().uuidString).tif"), opaque = folder.appending("reference-\(UUID().uuidString).tif")
        try FormatReference.run("tiff2rgba", ["-c", "none", path, full])
        try FormatReference.run("tiff2rgba", ["-c", "none", "-n", path, opaque])
        let alpha = try FormatReference.pillow(full).frame, colour = try FormatReference.pillow(opaque).frame
        var expected = colour
        for index in stride(from: 3, to: expected.rgba.count, by: 4) { expected.rgba[index] = alpha.rgba[index] }
        var options = ImageDecoder.Options()
        options.alphaMode = .premultiplied
        let ours = try FormatReference.ours(path, options: options)
        let difference = maxPremultipliedDifference(ours, expected)
        #expect(difference == 0, "\(label): max channel difference \(difference)", sourceLocation: sourceLocation)
    }

    /// The largest sample difference of two premultiplied pictures, every pixel compared.
    func maxPremultipliedDifference(_ ours: Bitmap, _ reference: ReferenceFrame) -> Int {
        guard ours.width == reference.width, ours.height == reference.height else { return Int.max }
        let mine = ours.packedPixels
        return zip(mine, reference.rgba).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    @Test func everyColourTypeCompressionAndLayoutMatchesTiff2rgba() throws {
        for kind in try sources() {
            let source = folder.appending("\(kind).tif")
            try expectMatchesReference(source, "\(kind) uncompressed")
            var variants: [(String, [String])] = [
                ("packbits", ["-c", "packbits"]), ("lzw", ["-c", "lzw"]), ("deflate", ["-c", "zip"]),
                ("lzw-strips-of-7", ["-c", "lzw", "-r", "7"]), ("tiles-16", ["-c", "zip", "-t", "-w", "16", "-l", "16"]),
            ]
            if ["rgb", "rgba", "cmyk"].contains(kind) { variants.append(("separate-planes", ["-c", "lzw", "-p", "separate"])) }
            if kind == "rgb" || kind == "gray8" { variants.append(("jpeg", ["-c", "jpeg", "-r", "16"])) }
            for (name, arguments) in variants {
                let path = folder.appending("\(kind)-\(name).tif")
                try FormatReference.run("tiffcp", arguments + [source, path])
                try expectMatchesReference(path, "\(kind) \(name)")
            }
        }
    }

    @Test func anImageInOneLargeStripDecodes() throws {
        // 3000 × 2800 RGBA in a single 33.6 MB strip: a whole image in one buffer.
        let picture = FormatReference.picture(width: 3000, height: 2800, alpha: false)
        let png = folder.appending("large.png")
        try FormatReference.writePNG(picture, to: png)
        try PillowReference.formats(["tiffs", png, folder.path])
        let path = folder.appending("one-strip.tif")
        try FormatReference.run("tiffcp", ["-r", "2800", folder.appending("rgba.tif"), path])
        #expect(maxChannelDifference(try FormatReference.ours(path), picture) == 0)
    }

    @Test func sixteenBitGrayIsRoundedToEightBits() throws {
        _ = try sources()
        let ours = try FormatReference.ours(folder.appending("gray16.tif"))
        #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: folder.appending("gray16.tif")))).bitDepth == 16)
        let pillow = try FormatReference.pillow(folder.appending("gray8.tif")).frame
        // The 16-bit file holds gray * 257 plus up to 199: rounding gives gray or gray + 1.
        #expect(maxChannelDifference(ours, width: pillow.width, height: pillow.height, rgba: pillow.rgba) <= 1)
    }

    @Test func fourBitPaletteDecodes() throws {
        let path = folder.appending("palette4.tif")
        try Data(HandmadeTIFF.fourBitPalette(width: 5, height: 3)).write(to: URL(fileURLWithPath: path))
        try expectMatchesReference(path, "4-bit palette")
        #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path))).bitDepth == 8)
        let ours = try FormatReference.ours(path)
        // Pixel (1, 0) has index 1: red 0xFFFF in the colour map.
        #expect(Array(ours.pixels[4..<8]) == [255, 0, 0, 255])
    }

    @Test func pagesAreSeparateImagesNotFrames() throws {
        _ = try sources()
        let multi = folder.appending("pages.tif")
        try FormatReference.run("tiffcp", [folder.appending("rgb.tif"), folder.appending("gray8.tif"), folder.appending("rgba.tif"), multi])
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: multi)))
        #expect(decoder.frameCount == 1)
        #expect(decoder.pageCount == 3)
        let second = try FormatReference.ours(folder.appending("gray8.tif"))
        #expect(maxChannelDifference(try decoder.page(at: 1), second) == 0)
        #expect(throws: ImageError.frameOutOfRange(index: 3, count: 3)) { try decoder.page(at: 3) }
    }

    @Test func orientationTagIsReportedAndApplied() throws {
        _ = try sources()
        let path = folder.appending("turned.tif")
        try FormatReference.run("tiffcp", [folder.appending("rgb.tif"), path])
        try FormatReference.run("tiffset", ["-s", "274", "6", path])
        let upright = try FormatReference.ours(folder.appending("rgb.tif"))
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoder.orientation == .right)
        #expect(maxChannelDifference(try decoder.frame(at: 0), upright.oriented(.right)) == 0)
        var stored = ImageDecoder.Options()
        stored.appliesOrientation = false
        #expect(maxChannelDifference(try FormatReference.ours(path, options: stored), upright) == 0)
    }

    @Test(arguments: ImageEncoder.TIFFCompression.allCases)
    func ourPagesReadBackThroughLibtiffAndPillow(compression: ImageEncoder.TIFFCompression) throws {
        let first = FormatReference.picture(alpha: true), second = FormatReference.picture(width: 20, height: 31, alpha: false)
        var encoder = ImageEncoder(type: .tiff)
        encoder.tiffCompression = compression
        encoder.addFrame(first)
        encoder.addFrame(second)
        let path = folder.appending("ours-\(compression).tif")
        try encoder.encode(to: URL(fileURLWithPath: path))
        let reference = try PillowReference.decode(path)
        #expect(reference.frames.count == 2)
        #expect(maxChannelDifference(first, reference.frames[0]) == 0)
        #expect(maxChannelDifference(second, reference.frames[1]) == 0)
        try expectMatchesReference(path, "ours \(compression)")
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoder.pageCount == 2)
        #expect(maxChannelDifference(try decoder.page(at: 1), second) == 0)
    }
}

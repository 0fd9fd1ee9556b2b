import Foundation
import Testing
import TestSupport
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

    @Test func sixteenBitGrayIsRoundedToEightBits() throws {
        _ = try sources()
        let ours = try FormatReference.ours(folder.appending("gray16.tif"))
        let pillow = try FormatReference.pillow(folder.appending("gray8.tif")).frame
        // The 16-bit file holds gray * 257 plus up to 199: rounding gives gray or gray + 1.
        #expect(maxChannelDifference(ours, width: pillow.width, height: pillow.height, rgba: pillow.rgba) <= 1)
    }

    @Test func fourBitPaletteDecodes() throws {
        let path = folder.appending("palette4.tif")
        try Data(HandmadeTIFF.fourBitPalette(width: 5, height: 3)).write(to: URL(fileURLWithPath: path))
        try expectMatchesReference(path, "4-bit palette")
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

/// Small TIFF files written byte by byte, for what Pillow cannot write and for hostile input.
enum HandmadeTIFF {
    /// A little-endian TIFF with one IFD of `entries` (tag, type, count, value or offset) at
    /// byte 8, `data` after it, and `nextIFD` as the following IFD's offset.
    static func file(entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)], data: [UInt8] = [], nextIFD: UInt32 = 0) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        u16(UInt16(entries.count))
        for entry in entries.sorted(by: { $0.tag < $1.tag }) {
            u16(entry.tag)
            u16(entry.type)
            u32(entry.count)
            u32(entry.value)
        }
        u32(nextIFD)
        return bytes + data
    }

    /// Where `data` starts in a file of `entryCount` entries.
    static func dataOffset(entryCount: Int) -> UInt32 { UInt32(8 + 2 + entryCount * 12 + 4) }

    /// A `width` × `height` 4-bit palette image whose pixel x, y has index (x + y) % 16, with a
    /// colour map whose index 1 is pure red.
    static func fourBitPalette(width: Int, height: Int) -> [UInt8] {
        let rowBytes = (width + 1) / 2
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let index = UInt8((x + y) % 16)
                pixels[y * rowBytes + x / 2] |= x % 2 == 0 ? index << 4 : index
            }
        }
        var colourMap = [UInt8]()
        for channel in 0..<3 {
            for index in 0..<16 {
                let value: UInt16 = index == 1 ? (channel == 0 ? 0xFFFF : 0) : UInt16(index * 4369 / (channel + 1))
                colourMap += [UInt8(value & 0xFF), UInt8(value >> 8)]
            }
        }
        let entryCount = 9
        let mapOffset = dataOffset(entryCount: entryCount), pixelOffset = mapOffset + UInt32(colourMap.count)
        return file(entries: [
            (256, 3, 1, UInt32(width)), (257, 3, 1, UInt32(height)), (258, 3, 1, 4), (259, 3, 1, 1),
            (262, 3, 1, 3), (273, 4, 1, pixelOffset), (278, 3, 1, UInt32(height)), (279, 4, 1, UInt32(pixels.count)),
            (320, 3, 48, mapOffset),
        ], data: colourMap + pixels)
    }
}

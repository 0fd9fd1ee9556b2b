import Foundation
import TestSupport
import Testing

@testable import YYImage

/// `ImageDecoder.bitDepth` says how many bits per colour sample the file stores, read from its
/// header: PNG's IHDR, JPEG's frame header, TIFF's BitsPerSample and each library's own answer
/// (the AVIF, JPEG 2000 and TIFF suites check theirs on the reference tools' files).
struct BitDepthTests {
    let folder = TemporaryDirectory("bit-depth")

    /// A `width` × 2 PNG of colour type `colorType` (0 grey, 2 RGB, 3 palette) and `depth` bits
    /// per sample, each row `rowBytes` bytes of a pattern, unfiltered.
    static func png(colorType: UInt8, depth: UInt8, width: Int, rowBytes: Int) throws -> Data {
        var header = [UInt8]()
        header.appendBE(UInt32(width))
        header.appendBE(UInt32(2))
        header += [depth, colorType, 0, 0, 0]
        var rows = [UInt8]()
        for row in 0..<2 { rows += [0] + (0..<rowBytes).map { UInt8(truncatingIfNeeded: $0 * 37 + row * 101) } }
        var bytes = PNGChunk.signature
        PNGChunk.append(type: "IHDR", data: header[...], to: &bytes)
        if colorType == 3 { PNGChunk.append(type: "PLTE", data: (0..<48).map { UInt8($0 * 5) }[...], to: &bytes) }
        PNGChunk.append(type: "IDAT", data: try PNGWriter.zlib(rows, level: 6)[...], to: &bytes)
        PNGChunk.append(type: "IEND", data: [], to: &bytes)
        return Data(bytes)
    }

    /// A 16-bit RGB PNG of 4 × 2 pixels.
    static func sixteenBitPNG() throws -> Data { try png(colorType: 2, depth: 16, width: 4, rowBytes: 24) }

    @Test func pngReportsItsHeaderDepthAndPalettesReportTheirEntries() throws {
        let cases: [(colorType: UInt8, depth: UInt8, rowBytes: Int, expected: Int)] = [
            (2, 16, 24, 16), (0, 16, 8, 16), (0, 8, 4, 8), (0, 1, 1, 1), (3, 4, 2, 8),
        ]
        for (colorType, depth, rowBytes, expected) in cases {
            let decoder = try ImageDecoder(data: try Self.png(colorType: colorType, depth: depth, width: 4, rowBytes: rowBytes))
            #expect(decoder.bitDepth == expected, "colour type \(colorType), depth \(depth)")
            // The pixels still decode, at 8 bits.
            #expect(try decoder.frame(at: 0).width == 4)
        }
    }

    @Test(arguments: [ImageType.png, .jpeg, .webp, .gif, .bmp])
    func ourEightBitFilesReportEight(_ type: ImageType) throws {
        let file = try ImageEncoder.encode(TestImages.solid(6, 4, RGBA(10, 20, 30)), as: type)
        #expect(try ImageDecoder(data: file).bitDepth == 8)
    }

    @Test func aDecoderWithoutAHeaderReportsZero() {
        let decoder = ImageDecoder()
        #expect(decoder.bitDepth == 0)
    }

    @Test func jpegPrecisionIsReadFromTheFrameHeader() throws {
        var jpeg = [UInt8](try ImageEncoder.encode(TestImages.solid(6, 4, RGBA(10, 20, 30)), as: .jpeg))
        #expect(JPEGMetadata.samplePrecision(inJPEG: jpeg) == 8)
        let frameHeader = try #require(JPEGMetadata.segments(jpeg).first { $0.marker == 0xC0 })
        jpeg[frameHeader.body.lowerBound] = 12
        #expect(JPEGMetadata.samplePrecision(inJPEG: jpeg) == 12)
        // A Huffman table (0xC4) shares the marker range but is no frame header.
        #expect(JPEGMetadata.samplePrecision(inJPEG: [0xFF, 0xD8, 0xFF, 0xC4, 0, 3, 0x10]) == nil)
    }

    @Test(.enabled(if: ImageType.heic.isDecodable && FormatReference.tool("heif-enc") != nil, "needs heif-enc (libheif-examples)"))
    func heicReportsItsLumaDepth() throws {
        let eight = folder.appending("eight.png"), sixteen = folder.appending("sixteen.png")
        try ImageEncoder.encode(TestImages.solid(6, 4, RGBA(10, 20, 30)), as: .png).write(to: URL(fileURLWithPath: eight))
        try Self.sixteenBitPNG().write(to: URL(fileURLWithPath: sixteen))
        for (depth, arguments) in [(8, [eight]), (10, ["-b", "10", sixteen]), (12, ["-b", "12", sixteen])] {
            let path = folder.appending("depth-\(depth).heic")
            try FormatReference.run("heif-enc", arguments + ["-o", path])
            #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path))).bitDepth == depth)
        }
    }

    @Test(.enabled(if: ImageType.jpegXL.isDecodable && FormatReference.tool("cjxl") != nil, "needs cjxl (libjxl-tools)"))
    func jpegXLReportsItsBitsPerSample() throws {
        let png = folder.appending("sixteen.png")
        try Self.sixteenBitPNG().write(to: URL(fileURLWithPath: png))
        let path = folder.appending("sixteen.jxl")
        try FormatReference.run("cjxl", ["-d", "0", png, path])
        #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path))).bitDepth == 16)
        #expect(try ImageDecoder(data: ImageEncoder.encode(TestImages.solid(6, 4, RGBA(1, 2, 3)), as: .jpegXL)).bitDepth == 8)
    }
}

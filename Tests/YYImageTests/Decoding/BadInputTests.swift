import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

/// Hostile and damaged input: typed errors or limited results, never a crash, a hang or
/// unbounded memory.
struct BadInputTests {
    /// Decodes every frame, returning the error if any. Anything but `ImageError` fails the test
    /// (the decoder's API throws nothing else).
    @discardableResult
    static func decodeAll(_ data: Data, options: ImageDecoder.Options = small) -> ImageError? {
        do {
            let decoder = try ImageDecoder(data: data, options: options)
            for index in 0..<decoder.frameCount { _ = try decoder.frame(at: index) }
            return nil
        } catch {
            return error
        }
    }

    /// An 8×8 grey progressive JPEG: its DC scan, then `acScans` scans that each code the same AC
    /// band again (libjpeg warns and goes on), every one passing over the whole image.
    static func progressiveJPEG(acScans: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC2, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        // One code each, "0": DC category 0, and AC end-of-block.
        for table: UInt8 in [0x00, 0x10] {
            bytes += [0xFF, 0xC4, 0x00, 0x14, table, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        }
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x7F]
        for _ in 0..<acScans { bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x00, 0x7F] }
        return Data(bytes + [0xFF, 0xD9])
    }

    @Test func aProgressiveJPEGOfThousandsOfScansIsRefused() {
        #expect(Self.decodeAll(Self.progressiveJPEG(acScans: 3)) == nil)
        let error = Self.decodeAll(Self.progressiveJPEG(acScans: 5000))
        #expect(error?.description.contains("500 scans") == true, "\(String(describing: error))")
    }

    /// A 64×64 RGBA PNG of zeros whose IDAT goes on inflating far past its rows: a fixed-Huffman
    /// block of `matches` copies of 258 zeros (13 bits each), about 258 × `matches` bytes.
    static func inflationBomb(matches: Int) -> Data {
        var bytes: [UInt8] = [], accumulator = 0, filled = 0
        func put(_ value: Int, bits: Int) {  // deflate packs from the least significant bit
            for bit in 0..<bits {
                accumulator |= ((value >> bit) & 1) << filled
                filled += 1
                if filled == 8 {
                    bytes.append(UInt8(accumulator))
                    accumulator = 0
                    filled = 0
                }
            }
        }
        func code(_ value: Int, bits: Int) {  // Huffman codes go most significant bit first
            for bit in (0..<bits).reversed() { put((value >> bit) & 1, bits: 1) }
        }
        put(1, bits: 1)  // the last block,
        put(1, bits: 2)  // fixed Huffman codes
        code(0b0011_0000, bits: 8)  // literal 0
        for _ in 0..<matches {
            code(0b1100_0101, bits: 8)  // length 258 (code 285)
            code(0, bits: 5)  // distance 1
        }
        code(0, bits: 7)  // end of block
        if filled > 0 { bytes.append(UInt8(accumulator)) }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        PNGChunk.append(type: "IHDR", data: [0, 0, 0, 64, 0, 0, 0, 64, 8, 6, 0, 0, 0], to: &png)
        PNGChunk.append(type: "IDAT", data: ([0x78, 0x01] + bytes + [0, 0, 0, 1])[...], to: &png)
        PNGChunk.append(type: "IEND", data: [], to: &png)
        return Data(png)
    }

    @Test func aPNGWhoseDataInflatesFarPastItsRowsIsDecodedFromItsRowsAlone() throws {
        // 256 MB of zeros after 16 KB of rows: the reader stops inflating at the first byte
        // too many (the sequential reader inflated all of it, seconds per gigabyte).
        let frame = try ImageDecoder(data: Self.inflationBomb(matches: 1 << 20)).frame(at: 0)
        #expect(frame.width == 64 && frame.height == 64)
        #expect(frame.pixels.allSatisfy { $0 == 0 })
    }

    /// Limits small enough that damaged headers cannot make the tests allocate much.
    static let small: ImageDecoder.Options = {
        var options = ImageDecoder.Options()
        options.maxPixelCount = 4_000_000
        options.maxTotalFrameBytes = 256 << 20
        return options
    }()

    static var sampleFiles: [URL] {
        ["demo", "compare", "misc"].flatMap { TestData.files(in: "yykit/images/" + $0) }
            .filter { ImageType(fileExtension: $0.pathExtension) != nil && !$0.lastPathComponent.hasPrefix("dribbble") }
            + TestData.files(in: "yykit/images/EmoticonQQ.bundle").filter { $0.pathExtension == "gif" }.prefix(20)
    }

    @Test(.needsSharedTestData)
    func samplesCutAtEachSixteenthGiveATypedErrorOrALimitedResult() throws {
        var errors = 0, limited = 0
        for file in Self.sampleFiles {
            let data = try Data(contentsOf: file)
            for sixteenth in 1..<16 {
                if Self.decodeAll(data.prefix(data.count * sixteenth / 16)) == nil { limited += 1 } else { errors += 1 }
            }
        }
        #expect(errors > 0)
        print("truncated samples: \(errors) typed errors, \(limited) limited results")
    }

    /// Every frame of `data`, or the error that stopped the decode.
    static func outcome(_ data: Data) -> Result<[Bitmap], ImageError> {
        Result { () throws(ImageError) in
            let decoder = try ImageDecoder(data: data, options: small)
            return try (0..<decoder.frameCount).map { index throws(ImageError) in try decoder.frame(at: index) }
        }
    }

    @Test(.needsSharedTestData)
    func randomByteFlipsGiveATypedErrorOrFramesWithinTheLimitsTheSameEachTime() throws {
        var random = SplitMix64(seed: 4)
        var refused = 0, decoded = 0
        for file in Self.sampleFiles.prefix(40) {
            let original = try Data(contentsOf: file)
            for _ in 0..<4 {  // each input is decoded twice
                var bytes = [UInt8](original)
                for _ in 0..<(1 + random.next() % 8) {
                    let i = Int(random.next() % UInt64(bytes.count))
                    bytes[i] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                }
                let first = Self.outcome(Data(bytes))
                // Decoding is deterministic: a second decode of the same damaged bytes gives the
                // same pixels or the same error (a read of uninitialised memory would not).
                #expect(first == Self.outcome(Data(bytes)), "\(file.lastPathComponent)")
                switch first {
                case .success(let frames):
                    // Whatever decodes stays within the limits it was given.
                    #expect(frames.allSatisfy { $0.width * $0.height <= Self.small.maxPixelCount }, "\(file.lastPathComponent)")
                    decoded += 1
                case .failure:
                    refused += 1
                }
            }
        }
        // The flips reached both outcomes: some files broke, some survived damage to pixel data.
        #expect(refused > 0)
        #expect(decoded > 0)
    }

    @Test func filesThatCannotBeReadOrWrittenAreFileSystemErrorsWithTheSystemReason() throws {
        let missing = "/nonexistent-yykit-folder/missing.png"
        #expect(throws: ImageError.fileSystem(path: missing, "cannot read: No such file or directory")) {
            try Image(contentsOfFile: missing)
        }
        var encoder = ImageEncoder(type: .png)
        #expect(throws: ImageError.fileSystem(path: missing, "cannot read: No such file or directory")) {
            try encoder.addFrame(contentsOf: URL(fileURLWithPath: missing))
        }
        encoder.addFrame(Bitmap(width: 1, height: 1, pixels: [0, 0, 0, 255])!)
        #expect {
            try encoder.encode(to: URL(fileURLWithPath: missing))
        } throws: { error in
            guard case .fileSystem(let path, let reason) = error as? ImageError else { return false }
            return path == missing && reason.hasPrefix("cannot write")
        }
    }

    @Test func aPNGClaimingAMillionByAMillionPixelsIsRefusedBeforeAllocation() throws {
        var png = PNGChunk.signature
        var ihdr = [UInt8]()
        ihdr.appendBE(UInt32(1_000_000)); ihdr.appendBE(UInt32(1_000_000))
        ihdr += [8, 6, 0, 0, 0]
        PNGChunk.append(type: "IHDR", data: ihdr[...], to: &png)
        PNGChunk.append(type: "IDAT", data: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01], to: &png)
        PNGChunk.append(type: "IEND", data: [], to: &png)
        #expect(throws: ImageError.tooManyPixels(width: 1_000_000, height: 1_000_000, limit: ImageDecoder.Options().maxPixelCount)) {
            try ImageDecoder(data: Data(png))
        }
    }

    @Test func hugeGIFScreensAndBMPSizesAreRefusedToo() throws {
        let gif = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0x3B]
        #expect(throws: ImageError.self) { try ImageDecoder(data: Data(gif)).frame(at: 0) }
        var bmp = BMPWriter.bmp(TestImages.solid(2, 2, RGBA(1, 2, 3)))
        bmp.replaceSubrange(18..<26, with: [0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: ImageError.self) { try ImageDecoder(data: Data(bmp)) }
    }

    @Test func aGIFOfTwentyThousandFramesDecodesInBoundedMemoryAndAFrameBytesLimitDropsTheExcess() throws {
        let frame = TestImages.gifFrame(ImageFrameInfo(width: 1, height: 1, duration: 0.01), palette: [RGBA(1, 2, 3), RGBA(4, 5, 6)]) { _, _ in 1 }
        let bytes = try GIFWriter.write(width: 1, height: 1, frames: Array(repeating: frame, count: 20_000), plays: 0)
        let decoder = try ImageDecoder(data: Data(bytes))
        #expect(decoder.frameCount == 20_000)
        for index in stride(from: 0, to: 20_000, by: 1) { _ = try decoder.frame(at: index) }
        #expect(try decoder.frame(at: 19_999)[0, 0] == RGBA(4, 5, 6))
        var limited = ImageDecoder.Options()
        limited.maxTotalFrameBytes = 4 * 1000
        let capped = try ImageDecoder(data: Data(bytes), options: limited)
        #expect(capped.frameCount == 1000)
        #expect(capped.droppedFrameCount == 19_000)
        #expect(throws: ImageError.frameOutOfRange(index: 1000, count: 1000)) { try capped.frame(at: 1000) }
    }

    @Test(arguments: [
        [], [0x89], Array("GIF89a".utf8), Array("RIFF\0\0\0\0WEBP".utf8),
        Array("hello, world, not an image".utf8), [0xFF, 0xD8, 0xFF],
    ])
    func emptyTinyAndUnknownDataAreTypedErrors(_ bytes: [UInt8]) {
        #expect(Self.decodeAll(Data(bytes)) != nil)
    }

    @Test func aRecognisedHeaderOverGarbageIsMalformed() {
        let tiff = Self.decodeAll(Data([0x4D, 0x4D, 0x00, 0x2A] + [UInt8](repeating: 0, count: 20)))
        if ImageType.tiff.isDecodable {
            guard case .malformed(.tiff, _)? = tiff else { Issue.record("TIFF: \(String(describing: tiff))"); return }
        } else {
            #expect(tiff == .unsupportedType(.tiff))
        }
        #expect(Self.decodeAll(Data(Array("icns".utf8) + [UInt8](repeating: 0, count: 20))) == .malformed(.icns, "no colour icon element"))
    }
}

extension BadInputTests {
    @Test func anICOOfWideAndTallEntriesEachWithinTheLimitStaysWithinIt() throws {
        var options = ImageDecoder.Options()
        options.maxPixelCount = 10_000
        let wide = try ImageEncoder.encode(TestImages.solid(200, 1, RGBA(1, 2, 3)), as: .png)
        let tall = try ImageEncoder.encode(TestImages.solid(1, 200, RGBA(4, 5, 6)), as: .png)
        // An ICO directory with the two PNGs (our writer refuses entries over 256, so build it by hand).
        var ico: [UInt8] = [0, 0, 1, 0, 2, 0]
        var offset = 6 + 32
        for (png, size) in [(wide, (200, 1)), (tall, (1, 200))] {
            ico += [UInt8(size.0), UInt8(size.1), 0, 0, 1, 0, 32, 0]
            ico.appendLE(UInt32(png.count)); ico.appendLE(UInt32(offset))
            offset += png.count
        }
        ico += [UInt8](wide) + [UInt8](tall)
        let decoder = try ImageDecoder(data: Data(ico), options: options)
        #expect(decoder.frameCount == 2)
        #expect(decoder.canvasWidth * decoder.canvasHeight == 200)
        #expect(try decoder.frame(at: 1).height == 200)
    }

    /// Found by libFuzzer (`Fuzz/`): an ICO entry whose PNG said 0 × 939,524,152 pixels passed
    /// the pixel limit (0 pixels), and the PNG decoder allocated a row pointer for each of the
    /// 939 million rows (7.5 GB) before libpng read the header and refused the zero width.
    @Test func aZeroWideImageWithAHugeHeightIsRefusedBeforeAllocation() throws {
        let height = 939_524_152
        var png = PNGChunk.signature
        var ihdr = [UInt8]()
        ihdr.appendBE(UInt32(0)); ihdr.appendBE(UInt32(height))
        ihdr += [8, 6, 0, 0, 0]
        PNGChunk.append(type: "IHDR", data: ihdr[...], to: &png)
        PNGChunk.append(type: "IDAT", data: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01], to: &png)
        PNGChunk.append(type: "IEND", data: [], to: &png)
        var ico: [UInt8] = [0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 32, 0]
        ico.appendLE(UInt32(png.count)); ico.appendLE(UInt32(22))
        ico += png
        var bmp = BMPWriter.bmp(TestImages.solid(2, 2, RGBA(1, 2, 3)))
        bmp.replaceSubrange(18..<26, with: [0, 0, 0, 0, 0x58, 0x03, 0x00, 0x38])  // 0 × 939,524,952
        #expect(throws: ImageError.malformed(.png, "IHDR size 0x939524152")) { try ImageDecoder(data: Data(png)) }
        #expect(throws: ImageError.malformed(.ico, "no readable entry")) { try ImageDecoder(data: Data(ico)) }
        #expect(throws: ImageError.malformed(.bmp, "size 0x939524952")) { try ImageDecoder(data: Data(bmp)) }
        // Every container's limit check: a side of 0 counts as 1.
        let limits = DecodeLimits(maxPixelCount: 100)
        #expect(throws: ImageError.tooManyPixels(width: 0, height: 101, limit: 100)) { try limits.check(width: 0, height: 101) }
        #expect(throws: ImageError.tooManyPixels(width: 101, height: 0, limit: 100)) { try limits.check(width: 101, height: 0) }
        try limits.check(width: 0, height: 100)
        try limits.check(width: 10, height: 10)
    }
}

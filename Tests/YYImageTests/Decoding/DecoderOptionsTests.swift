import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

/// Output options (downsampling, premultiplication, orientation), random access, and sharing a
/// decoder between threads.
struct DecoderOptionsTests {
    /// Four solid quadrants: red, green / blue, white; 64 x 32.
    static let quadrants = TestImages.bitmap(64, 32) { x, y in
        [[RGBA(255, 0, 0), RGBA(0, 255, 0)], [RGBA(0, 0, 255), RGBA(255, 255, 255)]][y / 16][x / 32]
    }

    static func close(_ a: RGBA, _ b: RGBA, within tolerance: Int = 24) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    @Test(arguments: [ImageType.png, .gif, .jpeg, .webp, .bmp])
    func maxPixelSizeShrinksEveryFormatToFitKeepingTheAspectRatio(_ type: ImageType) throws {
        var options = ImageDecoder.Options()
        options.maxPixelSize = 16
        let frame = try ImageDecoder(data: try ImageEncoder.encode(Self.quadrants, as: type), options: options).frame(at: 0)
        #expect(frame.width == 16)
        #expect(frame.height == 8)
        #expect(Self.close(frame[2, 2], RGBA(255, 0, 0)))
        #expect(Self.close(frame[13, 6], RGBA(255, 255, 255)))
    }

    /// 0 (from a setting where it meant "no limit", say) failed a precondition at the first frame.
    @Test(arguments: [ImageType.png, .jpeg, .gif])
    func aMaxPixelSizeBelowOneCountsAsOne(_ type: ImageType) throws {
        for size in [0, -3, .min] {
            var options = ImageDecoder.Options()
            options.maxPixelSize = size
            #expect(options.maxPixelSize == 1)
            let frame = try ImageDecoder(data: try ImageEncoder.encode(Self.quadrants, as: type), options: options).frame(at: 0)
            #expect((frame.width, frame.height) == (1, 1), "\(type) \(size)")
        }
    }

    @Test func jpegDownsamplingDecodesSmallerThroughPowerOfTwoDCTScaling() throws {
        let big = TestImages.photo(800, 600)
        let data = try ImageEncoder.encode(big, as: .jpeg)
        let bytes = [UInt8](data)
        #expect(TurboJPEG.scaledSize(width: 800, height: 600, keeping: 100) == (100, 75))
        #expect(TurboJPEG.scaledSize(width: 800, height: 600, keeping: 150) == (200, 150))
        // 5/8 (500 px) would keep 500, but only 1, 1/2, 1/4 and 1/8 are used: 1/1.
        #expect(TurboJPEG.scaledSize(width: 800, height: 600, keeping: 500) == (800, 600))
        #expect(TurboJPEG.scaledSize(width: 800, height: 600, keeping: 401) == (800, 600))
        #expect(TurboJPEG.scaledSize(width: 800, height: 600, keeping: 400) == (400, 300))
        // Odd sides round up, as libjpeg-turbo's DCT scaling does.
        #expect(TurboJPEG.scaledSize(width: 801, height: 601, keeping: 101) == (101, 76))
        #expect(TurboJPEG.scaledSize(width: 800, height: 600, keeping: 1) == (100, 75))
        #expect(TurboJPEG.scaledSize(width: 800, height: 600, keeping: nil) == (800, 600))
        var options = ImageDecoder.Options()
        options.maxPixelSize = 150
        let frame = try ImageDecoder(data: data, options: options).frame(at: 0)
        #expect(frame.width == 150)
        #expect(frame.height == 113)
        #expect(try TurboJPEG.decode(bytes, width: 200, height: 150, final: true).width == 200)
    }

    @Test func premultipliedOutputMultipliesColourByAlphaStraightOutputIsAsStored() throws {
        let pixel = TestImages.solid(1, 1, RGBA(200, 100, 50, 128))
        let data = try ImageEncoder.encode(pixel, as: .png)
        var options = ImageDecoder.Options()
        options.alphaMode = .premultiplied
        let premultiplied = try ImageDecoder(data: data, options: options).frame(at: 0)
        #expect(premultiplied.alphaMode == .premultiplied)
        #expect(premultiplied[0, 0] == RGBA(100, 50, 25, 128))
        #expect(try ImageDecoder(data: data).frame(at: 0)[0, 0] == RGBA(200, 100, 50, 128))
        #expect(premultiplied.straightened()[0, 0] == RGBA(199, 100, 50, 128))  // one rounding step lost
    }

    /// A TIFF structure whose IFD0 holds just `orientation`, as EXIF payloads carry it.
    static func exif(orientation: UInt16) -> [UInt8] {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1]
        tiff += [UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0, 0, 0, 0, 0]
        return tiff
    }

    /// Our `type` file of ``quadrants`` carrying `orientation` where the format keeps EXIF: JPEG
    /// APP1 after SOI, PNG eXIf after IHDR, WebP EXIF (through libwebp's muxer).
    static func file(_ type: ImageType, withOrientation orientation: UInt16) throws -> Data {
        var bytes = [UInt8](try ImageEncoder.encode(Self.quadrants, as: type, quality: 0.95))
        let tiff = exif(orientation: orientation)
        switch type {
        case .jpeg:
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            let segment: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
            bytes.insert(contentsOf: segment, at: 2)
        case .png:
            var chunk: [UInt8] = []
            PNGChunk.append(type: "eXIf", data: tiff[...], to: &chunk)
            bytes.insert(contentsOf: chunk, at: 8 + 25)  // after the signature and IHDR
        case .webp:
            bytes = try WebPWriter.withChunk("EXIF", tiff, bytes)
        default:
            Issue.record("no EXIF container for \(type)")
        }
        return Data(bytes)
    }

    @Test(arguments: [ImageType.jpeg, .png, .webp], ImageOrientation.allCases)
    func exifOrientationIsAppliedByDefaultAndKeptRawOnRequest(_ type: ImageType, _ orientation: ImageOrientation) throws {
        let data = try Self.file(type, withOrientation: UInt16(orientation.rawValue))
        #expect(try ImageDecoder(data: data).orientation == orientation)
        var raw = ImageDecoder.Options()
        raw.appliesOrientation = false
        #expect(try ImageDecoder(data: data, options: raw).frame(at: 0).width == 64)
        let decoder = try ImageDecoder(data: data)
        let upright = try decoder.frame(at: 0)
        let expected = Self.quadrants.oriented(orientation)
        #expect(upright.width == expected.width && upright.height == expected.height)
        #expect((decoder.orientedWidth, decoder.orientedHeight) == (expected.width, expected.height))
        for (x, y) in [(2, 2), (upright.width - 3, 2), (2, upright.height - 3), (upright.width - 3, upright.height - 3)] {
            #expect(Self.close(upright[x, y], expected[x, y]), "\(type) \(orientation) at \(x),\(y)")
        }
    }

    @Test func orientationsTurnPixelsTheEXIFWay() {
        let image = TestImages.bitmap(3, 2) { x, y in RGBA(UInt8(x), UInt8(y), 0) }  // (x, y) encoded in the pixel
        let right = image.oriented(.right)  // 90° clockwise: the bottom-left pixel goes to the top-left
        #expect(right.width == 2)
        #expect(right.height == 3)
        #expect(right[0, 0] == RGBA(0, 1, 0))
        #expect(right[1, 0] == RGBA(0, 0, 0))
        #expect(image.oriented(.left)[0, 0] == RGBA(2, 0, 0))
        #expect(image.oriented(.down)[0, 0] == RGBA(2, 1, 0))
        #expect(image.oriented(.upMirrored)[0, 0] == RGBA(2, 0, 0))
        #expect(image.oriented(.leftMirrored)[1, 2] == RGBA(2, 1, 0))
    }

    @Test(
        .needsSharedTestData,
        arguments: ["demo/pia@2x.png", "demo/nyancat@2x.webp", "demo/wall-e@2x.webp", "compare/ermilio.gif", "misc/Demo.gif"])
    func randomAccessEqualsSequentialDecoding(_ file: String) throws {
        let data = try Samples.data(file)
        let sequential = try ImageDecoder(data: data)
        let frames = try (0..<sequential.frameCount).map { try sequential.frame(at: $0) }
        let random = try ImageDecoder(data: data)
        var generator = SplitMix64(seed: 11)
        for _ in 0..<min(40, frames.count * 2) {
            let index = Int(generator.next() % UInt64(frames.count))
            #expect(try random.frame(at: index) == frames[index], "frame \(index)")
        }
        for index in (0..<frames.count).reversed() { #expect(try random.frame(at: index) == frames[index]) }
    }

    @Test(.needsSharedTestData)
    func oneDecoderSharedByManyTasksGivesTheSameFrames() async throws {
        let decoder = try ImageDecoder(data: try Samples.data("demo/pia@2x.png"))
        let expected = try (0..<decoder.frameCount).map { try ImageDecoder(data: try Samples.data("demo/pia@2x.png")).frame(at: $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for step in 0..<12 {
                        let index = (task + step * 5) % expected.count
                        let frame = try decoder.frame(at: index)
                        #expect(frame == expected[index])
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

@Suite struct ShrinkOnLoadTests {
    @Test(arguments: [ImageType.jpeg, .webp])
    func aStillDecodesNoSmallerThanAskedAndCloseToAFullDecodeResized(_ type: ImageType) throws {
        let source = TestImages.bitmap(400, 200) { x, y in RGBA(UInt8(x * 255 / 399), UInt8(y * 255 / 199), 128) }
        let data = try ImageEncoder.encode(source, as: type, quality: 0.95)
        var options = ImageDecoder.Options()
        options.shrinkOnLoad = 100
        let small = try ImageDecoder(data: data, options: options).frame(at: 0)
        #expect(max(small.width, small.height) >= 100 && max(small.width, small.height) < 400, "\(type): \(small.width)x\(small.height)")
        #expect(small.width == small.height * 2)
        let full = try ImageDecoder(data: data).frame(at: 0)
        let reference = try ProcessingChain().resized(Resize(width: small.width, height: small.height, fit: .fill)).apply(to: full)
        #expect(maxChannelDifference(small, reference) <= 12, "\(type)")
    }

    @Test(arguments: [ImageType.jpeg, .webp, .png])
    func aSizeGivenPerFrameDecodesAsTheOptionWould(_ type: ImageType) throws {
        let source = TestImages.bitmap(400, 200) { x, y in RGBA(UInt8(x * 255 / 399), UInt8(y * 255 / 199), 128) }
        let data = try ImageEncoder.encode(source, as: type, quality: 0.95)
        var options = ImageDecoder.Options()
        options.shrinkOnLoad = 100
        let decoder = try ImageDecoder(data: data)
        #expect(try decoder.frame(at: 0, shrinkOnLoad: 100) == ImageDecoder(data: data, options: options).frame(at: 0))
        #expect(try decoder.frame(at: 0, shrinkOnLoad: nil) == decoder.frame(at: 0))
        #expect(try decoder.frame(at: 0).width == 400)
    }
}

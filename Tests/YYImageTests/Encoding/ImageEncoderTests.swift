import Foundation
import TestSupport
import Testing

@testable import YYImage

/// Encode -> decode round trips (lossless formats exact, lossy at least 35 dB PSNR at the default
/// quality), and files we write opening correctly in tools no one here wrote.
struct ImageEncoderTests {
    /// An image with transparency and few colours: exact in every lossless format, GIF included.
    static let icon = TestImages.bitmap(37, 23) { x, y in
        (x + y) % 7 == 0 ? RGBA(0, 0, 0, 0) : [RGBA(200, 30, 30), RGBA(30, 200, 30), RGBA(20, 20, 220), RGBA(250, 250, 250)][(x / 5 + y / 4) % 4]
    }
    /// Partial alpha and thousands of colours.
    static let translucent = TestImages.photo(64, 48, seed: 7, alpha: true)
    static let photo = TestImages.photo(96, 64, seed: 3)

    @Test(arguments: [ImageType.png, .webp, .bmp, .ico])
    func losslessFormatsGiveBackEveryPixel(_ type: ImageType) throws {
        var encoder = ImageEncoder(type: type)
        encoder.lossless = true
        encoder.addFrame(Self.translucent)
        let decoded = try ImageDecoder(data: try encoder.encode()).frame(at: 0)
        #expect(decoded == Self.translucent)
    }

    @Test func gifKeepsImagesOfUpTo256ColoursExactlyTransparencyIncluded() throws {
        let decoded = try ImageDecoder(data: try ImageEncoder.encode(Self.icon, as: .gif)).frame(at: 0)
        #expect(maxChannelDifference(decoded, Self.icon) == 0)
    }

    @Test func gifOfAPhotoStaysCloseWithMedianCutAndWithDithering() throws {
        let plain = try ImageDecoder(data: try ImageEncoder.encode(Self.photo, as: .gif)).frame(at: 0)
        var encoder = ImageEncoder(type: .gif)
        encoder.dithering = true
        encoder.addFrame(Self.photo)
        let dithered = try ImageDecoder(data: try encoder.encode()).frame(at: 0)
        #expect(psnr(plain, Self.photo) >= 30)
        #expect(psnr(dithered, Self.photo) >= 28)
        #expect(plain != dithered)
    }

    @Test(arguments: [ImageType.jpeg, .webp])
    func lossyFormatsAtTheDefaultQualityStayAbove35DB(_ type: ImageType) throws {
        let data = try ImageEncoder.encode(Self.photo, as: type)
        let decoded = try ImageDecoder(data: data).frame(at: 0)
        #expect(psnr(decoded, Self.photo) >= 35, "\(type): \(psnr(decoded, Self.photo)) dB")
        #expect(data.count < Self.photo.byteCount / 2)
    }

    @Test(arguments: [ImageType.png, .gif, .webp])
    func animationsKeepFramesDurationsAndLoopCount(_ type: ImageType) throws {
        var encoder = ImageEncoder(type: type)
        encoder.loopCount = 3
        encoder.lossless = true
        let frames = (0..<5).map { i in
            TestImages.bitmap(20, 12) { x, y in (x + i) % 4 == 0 ? RGBA(0, 0, 0, 0) : RGBA(UInt8(i * 50), UInt8(x * 10), UInt8(y * 20)) }
        }
        for (i, frame) in frames.enumerated() { encoder.addFrame(frame, duration: [0.1, 0.05, 0.2, 0.04, 1][i]) }
        let decoder = try ImageDecoder(data: try encoder.encode())
        #expect(decoder.frameCount == 5)
        #expect(decoder.loopCount == 3)
        #expect(decoder.frameInfos.map(\.duration) == [0.1, 0.05, 0.2, 0.04, 1])
        for (i, frame) in frames.enumerated() {
            #expect(maxChannelDifference(try decoder.frame(at: i), frame) == 0, "frame \(i)")
        }
    }

    @Test func framesOfDifferentSizesGoTopLeftOnACanvasAsLargeAsTheLargest() throws {
        var encoder = ImageEncoder(type: .png)
        encoder.addFrame(TestImages.solid(4, 4, RGBA(255, 0, 0)), duration: 0.1)
        encoder.addFrame(TestImages.solid(8, 2, RGBA(0, 255, 0)), duration: 0.1)
        let decoder = try ImageDecoder(data: try encoder.encode())
        #expect(decoder.canvasWidth == 8)
        #expect(decoder.canvasHeight == 4)
        #expect(try decoder.frame(at: 0)[7, 3] == RGBA(0, 0, 0, 0))
        #expect(try decoder.frame(at: 1)[7, 1] == RGBA(0, 255, 0))
    }

    @Test func reEncodingADecoderKeepsEveryFrame() throws {
        let frames = [TestImages.solid(6, 6, RGBA(1, 2, 3)), TestImages.solid(6, 6, RGBA(4, 5, 6))]
        var encoder = ImageEncoder(type: .gif)
        for frame in frames { encoder.addFrame(frame, duration: 0.3) }
        let webp = try ImageEncoder.reencode(try ImageDecoder(data: try encoder.encode()), as: .webp, lossless: true)
        let decoder = try ImageDecoder(data: webp)
        #expect(decoder.type == .webp)
        #expect(decoder.frameCount == 2)
        #expect(try decoder.frame(at: 1)[0, 0] == RGBA(4, 5, 6))
    }

    @Test(arguments: [ImageType.png, .gif, .webp])
    func loopCountsAndDurationsBeyondWhatTheFormatHoldsAreCutNotACrash(_ type: ImageType) throws {
        var encoder = ImageEncoder(type: type)
        encoder.loopCount = .max
        encoder.addFrame(TestImages.solid(4, 4, RGBA(255, 0, 0)), duration: .infinity)
        encoder.addFrame(TestImages.solid(4, 4, RGBA(0, 255, 0)), duration: .nan)
        encoder.addFrame(TestImages.solid(4, 4, RGBA(0, 0, 255)), duration: 1e300)
        let decoder = try ImageDecoder(data: try encoder.encode())
        #expect(decoder.frameCount == 3)
        let longest: Double =
            switch type {
            case .gif: 655.35  // 16 bits of centiseconds
            case .png: 65535  // a 16-bit fraction: 65535/1 s
            default: 16_777.215  // 24 bits of milliseconds
            }
        #expect(decoder.frameInfos.map(\.duration) == [longest, 0, longest])
        #expect(decoder.loopCount == (type == .png ? Int(UInt32.max) : type == .gif ? 65536 : 65535))
    }

    @Test func aWebPAnimationLongerThanItsClockHoldsIsATypedError() {
        var encoder = ImageEncoder(type: .webp)
        for _ in 0..<200 { encoder.addFrame(TestImages.solid(2, 2, RGBA(255, 0, 0)), duration: 20_000) }  // 46 days
        #expect(throws: ImageError.invalidInput("the animation lasts longer than WebP can time (24 days)")) { try encoder.encode() }
    }

    /// libwebp refuses a side over 16383 pixels and says only that it failed.
    @Test func aSizeOverWhatAFormatHoldsIsATypedErrorThatSaysTheLimit() throws {
        let wide = Bitmap(width: 16_384, height: 1)
        let tall = Bitmap(width: 2, height: 20_000)
        #expect(throws: ImageError.invalidInput("WebP images are 1...16383 pixels a side, not 16384x1")) { try ImageEncoder.encode(wide, as: .webp) }
        var animation = ImageEncoder(type: .webp)
        animation.addFrame(tall, duration: 0.1)
        animation.addFrame(tall, duration: 0.1)
        #expect(throws: ImageError.invalidInput("WebP images are 1...16383 pixels a side, not 2x20000")) { try animation.encode() }
        #expect(throws: ImageError.invalidInput("GIF screens are 1...65535 pixels a side, not 1x65536")) {
            try ImageEncoder.encode(Bitmap(width: 1, height: 65_536), as: .gif)
        }
        let widest = try Image(data: ImageEncoder.encode(Bitmap(width: 16_383, height: 1), as: .webp))
        #expect((widest.pixelWidth, widest.pixelHeight) == (16_383, 1))
    }

    @Test func badEncoderInputIsATypedError() throws {
        #expect(throws: ImageError.invalidInput("no frames to encode")) { try ImageEncoder(type: .png).encode() }
        // A negative loop count was written as forever, the opposite of a finite count.
        for type in [ImageType.png, .gif, .webp] {
            var negative = ImageEncoder(type: type)
            negative.loopCount = -1
            for index in 0..<2 { negative.addFrame(TestImages.solid(2, 2, RGBA(UInt8(index), 0, 0)), duration: 0.1) }
            #expect(throws: ImageError.invalidInput("a loop count of -1: give 0 (forever) or a number of plays")) { try negative.encode() }
        }
        #expect(throws: ImageError.unsupportedType(.heic)) { try ImageEncoder.encode(Self.icon, as: .heic) }
        #expect(throws: ImageError.self) { try ImageEncoder.encode(Bitmap(width: 0, height: 3), as: .png) }
    }

    // MARK: Outside tools

    @Test(
        .enabled(if: PillowReference.isAvailable, Comment(rawValue: PillowReference.missingReason)),
        arguments: [ImageType.png, .gif, .webp, .bmp, .ico])
    func pillowReadsEveryFileWeWriteWithTheRightFramesAndPixels(_ type: ImageType) throws {
        let folder = TemporaryDirectory("pillow-reads")
        var encoder = ImageEncoder(type: type)
        encoder.lossless = true
        let frames = type == .bmp || type == .ico ? [Self.icon] : [Self.icon, TestImages.solid(37, 23, RGBA(9, 99, 199))]
        for frame in frames { encoder.addFrame(frame, duration: 0.25) }
        let path = folder.appending("out.\(type.fileExtension)")
        try encoder.encode(to: URL(fileURLWithPath: path))
        let reference = try PillowReference.decode(path)
        #expect(reference.frames.count == frames.count)
        for (index, frame) in frames.enumerated() where index < reference.frames.count {
            #expect(maxChannelDifference(frame, reference.frames[index]) == 0, "frame \(index)")
        }
        if frames.count > 1 { #expect(reference.durations.allSatisfy { $0 == 250 }) }
    }

    @Test(.enabled(if: OutsideTools.isAvailable, Comment(rawValue: OutsideTools.missingReason)))
    func gifsicleWebpmuxAndApngdisAcceptOurAnimations() throws {
        let folder = TemporaryDirectory("tools")
        for type in [ImageType.gif, .webp, .png] {
            var encoder = ImageEncoder(type: type)
            encoder.loopCount = 4
            for i in 0..<3 { encoder.addFrame(TestImages.photo(30, 20, seed: UInt64(i)), duration: 0.1) }
            try encoder.encode(to: URL(fileURLWithPath: folder.appending("anim.\(type.fileExtension)")))
        }
        let gif = try ChildProcess.run(OutsideTools.path("gifsicle")!, ["--info", folder.appending("anim.gif")])
        #expect(gif.status == 0)
        #expect(gif.text.contains("3 images"))
        #expect(gif.text.contains("loop count 3"))  // 4 plays = 3 repeats
        let webp = try ChildProcess.run(OutsideTools.path("webpmux")!, ["-info", folder.appending("anim.webp")])
        #expect(webp.status == 0)
        #expect(webp.text.contains("Number of frames: 3"))
        #expect(webp.text.contains("Loop Count : 4"))
        let copy = folder.appending("apng.png")
        try FileManager.default.copyItem(atPath: folder.appending("anim.png"), toPath: copy)
        let apng = try ChildProcess.run(OutsideTools.path("apngdis")!, [copy, "f"])
        #expect(apng.status == 0)
        #expect(apng.text.contains("extracting frame 3 of 3"))
    }
}

/// Command-line image tools from Debian (scripts/setup --reference).
enum OutsideTools {
    static func path(_ name: String) -> String? { ChildProcess.systemExecutable(name) }
    static var isAvailable: Bool { ["gifsicle", "webpmux", "apngdis"].allSatisfy { path($0) != nil } }
    static let missingReason = "gifsicle, webpmux or apngdis is missing: run scripts/setup --reference"
}

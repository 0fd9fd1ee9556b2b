import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

struct AnimatedImageTests {
    @Test(.needsSharedTestData)
    func imageFromFileTakesScaleFromItsNameAndReportsSizeFramesLoopsAndMemory() throws {
        let image = try Image(contentsOfFile: Samples.path("demo/pia@2x.png"))
        #expect(image.type == .png)
        #expect(image.scale == 2)
        #expect(image.size == (110, 110))
        #expect(image.frameCount == 6)
        #expect(image.loopCount == 0)
        #expect(image.bytesPerFrame == 220 * 220 * 4)
        #expect(image.memorySize == 220 * 220 * 4 * 6)
        #expect(image.animatedImageData != nil)
        #expect(image.duration(at: 0) == 0.15)
        let still = try Image(contentsOfFile: Samples.path("demo/mew_baseline.jpg"))
        #expect(still.scale == 1)
        #expect(still.memorySize == 0)
        #expect(still.animatedImageData == nil)
    }

    @Test(arguments: [
        ("a@2x.png", 2.0), ("a@3x", 3), ("dir/b@2.5x.gif", 2.5), ("c.png", 1), ("d@x.png", 1), ("e@2x@3x.png", 3), ("f@-2x.png", 1),
        // Not a finite positive number: an infinite scale made the size in points 0 × 0.
        ("g@1e999x.png", 1), ("h@1e-320x.png", 1),
    ])
    func scaleSuffixes(_ name: String, _ scale: Double) {
        #expect(Image.scale(fromFileName: name) == scale)
    }

    @Test(.needsSharedTestData)
    func preloadingKeepsEveryFrameEqualToOnDemandDecoding() throws {
        let image = try Image(data: try Samples.data("demo/wall-e@2x.webp"))
        let onDemand = try (0..<image.frameCount).map { try image.frame(at: $0) }
        try image.preloadAllFrames()
        #expect(image.isPreloaded)
        for index in 0..<image.frameCount { #expect(try image.frame(at: index) == onDemand[index]) }
        image.unloadFrames()
        #expect(!image.isPreloaded)
    }

    @Test func anImageFromAParsedDecoderEqualsOneFromItsDataAndAnUnfinishedDecoderIsRefused() throws {
        var encoder = ImageEncoder(type: .gif)
        encoder.loopCount = 3
        for (index, duration) in [0.05, 0.2, 0.1].enumerated() {
            encoder.addFrame(TestImages.photo(6, 4, seed: UInt64(index + 1)), duration: duration)
        }
        let data = try encoder.encode()
        let fromData = try Image(data: data)
        let fromDecoder = try Image(decoder: ImageDecoder(data: data))
        #expect(fromDecoder.type == .gif)
        #expect(fromDecoder.frameCount == 3)
        #expect(fromDecoder.loopCount == fromData.loopCount)
        #expect((0..<3).map(fromDecoder.duration(at:)) == (0..<3).map(fromData.duration(at:)))
        for index in 0..<3 { #expect(try fromDecoder.frame(at: index) == fromData.frame(at: index)) }

        let waiting = ImageDecoder()
        try waiting.update(data: data.prefix(data.count / 2), final: false)
        #expect(throws: ImageError.invalidUpdate("the decoder's data is not final yet")) { try Image(decoder: waiting) }
    }

    @Test func framesUnder11msShowFor100msInEveryTypeUnlessTheRuleIsChanged() throws {
        var encoder = ImageEncoder(type: .gif)
        for duration in [0, 0.01, 0.02, 0.5] { encoder.addFrame(TestImages.solid(2, 2, RGBA(1, 1, 1)), duration: duration) }
        let data = try encoder.encode()
        let image = try Image(data: data)
        #expect((0..<4).map(image.duration(at:)) == [0.1, 0.1, 0.02, 0.5])
        #expect((0..<4).map(try Image(data: data, durationRule: .none).duration(at:)) == [0, 0.01, 0.02, 0.5])
        let custom = FrameDurationRule(threshold: 0.03, replacement: 0.05)
        #expect((0..<4).map(try Image(data: data, durationRule: custom).duration(at:)) == [0.05, 0.05, 0.05, 0.5])
        let frames = try FrameImage(sources: [.data(data), .data(data)], frameDurations: [0.005, 0.2])
        #expect(frames.duration(at: 0) == 0.1)
        #expect(frames.duration(at: 1) == 0.2)
        let sprites = try SpriteSheetImage(
            sheet: TestImages.solid(4, 4, RGBA(0, 0, 0)), contentRects: [PixelRect(x: 0, y: 0, width: 2, height: 2)], frameDurations: [0])
        #expect(sprites.duration(at: 0) == 0.1)
    }

    @Test func frameImageDecodesEachFrameFromItsOwnFileOrData() throws {
        let folder = TemporaryDirectory("frames")
        let red = TestImages.solid(5, 3, RGBA(255, 0, 0)), blue = TestImages.solid(5, 3, RGBA(0, 0, 255))
        let path = folder.appending("red.png")
        try ImageEncoder.encode(red, as: .png).write(to: URL(fileURLWithPath: path))
        let image = try FrameImage(sources: [.file(path), .data(try ImageEncoder.encode(blue, as: .bmp))], oneFrameDuration: 0.25, loopCount: 2)
        #expect(image.frameCount == 2)
        #expect(image.loopCount == 2)
        #expect(image.bytesPerFrame == 60)
        #expect(try image.frame(at: 0) == red)
        #expect(try image.frame(at: 1) == blue)
        #expect(image.duration(at: 1) == 0.25)
        #expect(throws: ImageError.frameOutOfRange(index: 2, count: 2)) { try image.frame(at: 2) }
        #expect(throws: ImageError.self) { try FrameImage(sources: [], oneFrameDuration: 1) }
        #expect(throws: ImageError.self) { try FrameImage(sources: [.data(Data())], frameDurations: [1]) }
        #expect(throws: ImageError.self) { try FrameImage(sources: [.file(path)], frameDurations: [1, 2]) }
    }

    @Test func contentsRectanglesOutsideTheUnitSquareAreClampedNotACrash() {
        let sheet = TestImages.bitmap(8, 4) { x, _ in x < 4 ? RGBA(255, 0, 0) : RGBA(0, 255, 0) }
        let wild = FrameContents(bitmap: sheet, contentsRect: UnitRect(x: .nan, y: -.infinity, width: 0.5, height: .infinity))
        let visible = wild.visibleBitmap()
        #expect(visible.width == 4 && visible.height == 4)
        #expect(visible[0, 0] == RGBA(255, 0, 0))
        let right = FrameContents(bitmap: sheet, contentsRect: UnitRect(x: 0.5, y: 0, width: 1e300, height: 1)).visibleBitmap()
        #expect(right[0, 0] == RGBA(0, 255, 0))
    }

    /// Rectangles from a sprite atlas's metadata: an edge past Int.max stopped the program
    /// (arithmetic overflow), a huge one made each frame allocate its area.
    @Test func spriteRectanglesThatNoFrameCouldHaveAreATypedError() throws {
        let sheet = TestImages.solid(4, 4, RGBA(255, 0, 0))
        for rect in [
            PixelRect(x: .max - 1, y: 0, width: 4, height: 4), PixelRect(x: 0, y: .min, width: 1, height: -1),
            PixelRect(x: 0, y: 0, width: -1, height: 4), PixelRect(x: 0, y: 0, width: 1 << 20, height: 1 << 20),
            PixelRect(x: 0, y: 0, width: .max, height: 2),
        ] {
            #expect(throws: ImageError.self, "\(rect)") { try SpriteSheetImage(sheet: sheet, contentRects: [rect], frameDurations: [0.1]) }
        }
        // As large as a decoded image may be, and reaching past the sheet: allowed.
        let side = Int(Double(SpriteSheetImage.maximumSpritePixelCount).squareRoot())
        let large = try SpriteSheetImage(
            sheet: sheet, contentRects: [PixelRect(x: -side / 2, y: 0, width: side, height: side)], frameDurations: [0.1])
        #expect(large.contentsRect(at: 0) == UnitRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test func spriteSheetImageCropsSpritesAndGivesUnitRectanglesClippedToTheSheet() throws {
        let sheet = TestImages.bitmap(8, 4) { x, _ in x < 4 ? RGBA(255, 0, 0) : RGBA(0, 255, 0) }
        let image = try SpriteSheetImage(
            sheet: sheet,
            contentRects: [
                PixelRect(x: 0, y: 0, width: 4, height: 4), PixelRect(x: 4, y: 0, width: 4, height: 4),
                PixelRect(x: 6, y: -2, width: 4, height: 4),
            ],
            frameDurations: [0.1, 0.1, 0.1], loopCount: 1)
        #expect(image.frameCount == 3)
        #expect(image.bytesPerFrame == 0)
        #expect(try image.frame(at: 1)[0, 0] == RGBA(0, 255, 0))
        #expect(image.contentsRect(at: 1) == UnitRect(x: 0.5, y: 0, width: 0.5, height: 1))
        #expect(image.contentsRect(at: 2) == UnitRect(x: 0.75, y: 0, width: 0.25, height: 0.5))
        #expect(try image.frame(at: 2)[3, 3] == RGBA(0, 0, 0, 0))  // outside the sheet
        #expect(throws: ImageError.self) { try SpriteSheetImage(sheet: sheet, contentRects: [], frameDurations: []) }
        let still: any AnimatedImage = try Image(data: try ImageEncoder.encode(sheet, as: .png))
        #expect(still.contentsRect(at: 0) == nil)
    }
}

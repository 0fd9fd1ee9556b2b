import Foundation
import TestSupport
import Testing
import YYCache
import YYModelCore

@testable import YYImage

/// `Image`, `FrameImage` and `SpriteSheetImage` through `JSONEncoder`, `ModelEncoder` and a
/// `Cache`: the same frames, durations and loop count come back.
struct ImageArchivingTests {
    /// Three frames of the test picture, turned differently, with distinct durations.
    static let frames: [Bitmap] = [.up, .down, .upMirrored].map { FormatReference.picture(width: 32, height: 32).oriented($0) }
    static let durations = [0.04, 0.08, 0.12]

    /// An encoded animation (or still, for formats without animation) of `type`.
    static func file(_ type: ImageType) throws -> Data {
        var encoder = ImageEncoder(type: type)
        encoder.lossless = true
        encoder.effort = 0
        encoder.loopCount = 3
        for (frame, duration) in zip(frames, durations) { encoder.addFrame(frame, duration: duration) }
        return try encoder.encode()
    }

    static func expectSame(
        _ a: some AnimatedImage, _ b: some AnimatedImage, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(a.frameCount == b.frameCount, "\(label) frames", sourceLocation: sourceLocation)
        #expect(a.loopCount == b.loopCount, "\(label) loop count", sourceLocation: sourceLocation)
        for index in 0..<min(a.frameCount, b.frameCount) {
            #expect(a.duration(at: index) == b.duration(at: index), "\(label) duration \(index)", sourceLocation: sourceLocation)
            #expect(try a.frame(at: index) == b.frame(at: index), "\(label) frame \(index)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ImageType.allCases.filter(\.isEncodable))
    func everyTypeRoundTripsThroughJSONAndModelEncoder(type: ImageType) throws {
        let image = try Image(data: try Self.file(type), scale: 2)
        let json = try JSONDecoder().decode(Image.self, from: JSONEncoder().encode(image))
        try Self.expectSame(image, json, "\(type) JSON")
        #expect(json.type == type && json.scale == 2)
        let model = try ModelDecoder().decode(Image.self, from: ModelEncoder().encode(image))
        try Self.expectSame(image, model, "\(type) ModelEncoder")
    }

    @Test func imagesMadeFromBitmapsKeepTheirExactDurations() throws {
        let image = try Image(frames: Self.frames, durations: [0.0123, 0.5, 1 / 3], loopCount: 2, type: .webp)
        let decoded = try JSONDecoder().decode(Image.self, from: JSONEncoder().encode(image))
        try Self.expectSame(image, decoded, "bitmaps")
        #expect(decoded.type == .webp)
    }

    @Test func framesAndSpriteSheetsRoundTrip() throws {
        let sources = try Self.frames.map { FrameImage.Source.data(try ImageEncoder.encode($0, as: .png)) }
        let frameImage = try FrameImage(sources: sources, frameDurations: Self.durations, loopCount: 5)
        try Self.expectSame(frameImage, try JSONDecoder().decode(FrameImage.self, from: JSONEncoder().encode(frameImage)), "FrameImage")

        let sheet = FormatReference.picture(width: 48, height: 24)
        let rects = [PixelRect(x: 0, y: 0, width: 24, height: 24), PixelRect(x: 24, y: 0, width: 24, height: 24)]
        let sprites = try SpriteSheetImage(sheet: sheet, contentRects: rects, frameDurations: [0.005, 0.2], loopCount: 1)
        let decoded = try JSONDecoder().decode(SpriteSheetImage.self, from: JSONEncoder().encode(sprites))
        try Self.expectSame(sprites, decoded, "SpriteSheetImage")
        #expect(decoded.contentRects == rects)
    }

    @Test func anAnimationRoundTripsThroughACacheOnDisk() throws {
        let folder = TemporaryDirectory("archive-cache")
        let cache = try Cache<Image>(path: folder.path)
        let image = try Image(data: try Self.file(.webp))
        try cache.setValue(image, forKey: "animation")
        cache.memoryCache.removeAll()  // the value must come back from its archive on disk
        let restored = try #require(try cache.value(forKey: "animation"))
        try Self.expectSame(image, restored, "Cache")
        #expect(restored.frameCount == 3)
    }

    @Test func corruptedArchivesAreTypedErrors() throws {
        let garbage = #"{"type":"png","scale":1,"data":"bm90IGFuIGltYWdl"}"#
        #expect(throws: ImageError.unknownFormat) { try JSONDecoder().decode(Image.self, from: Data(garbage.utf8)) }
        let gif = try Self.file(.gif).base64EncodedString()
        let mislabelled = #"{"type":"png","scale":1,"data":"\#(gif)"}"#
        #expect(throws: ImageError.self) { try JSONDecoder().decode(Image.self, from: Data(mislabelled.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Image.self, from: Data(#"{"type":"png"}"#.utf8)) }
        let durations = #"{"type":"png","scale":1,"data":"\#(try Self.file(.png).base64EncodedString())","durations":[1]}"#
        #expect(throws: ImageError.self) { try JSONDecoder().decode(Image.self, from: Data(durations.utf8)) }
    }

    @Test func archivedImagesDecodeWithinTheLimitsTheDecoderIsGiven() throws {
        let data = try JSONEncoder().encode(try Image(data: try Self.file(.png)))
        var options = ImageDecoder.Options()
        options.maxPixelCount = 100
        let decoder = JSONDecoder()
        decoder.userInfo[.imageDecoderOptions] = options
        #expect(throws: ImageError.tooManyPixels(width: 32, height: 32, limit: 100)) { try decoder.decode(Image.self, from: data) }
    }
}

import Foundation
import Testing

@testable import YYImage

/// `ImageDecoder.frame(at:shrinkOnLoad:checkpoint:)` stops inside the decoder that can (libpng
/// between rows) and before every frame of the others, with the
/// checkpoint's error, and a decoder stopped once still decodes.
@Suite struct DecodingCancellationTests {
    /// A still of `rows` rows in `type`, losslessly where the format allows.
    static func file(_ type: ImageType, width: Int = 96, rows: Int) throws -> Data {
        var encoder = ImageEncoder(type: type)
        encoder.lossless = true
        encoder.addFrame(TestImages.photo(width, rows, seed: 7))
        return try encoder.encode()
    }

    @Test func pngAsksTheCheckpointEverySixtyFourRowsAndStopsWithItsError() throws {
        let decoder = try ImageDecoder(data: try Self.file(.png, rows: 640))
        let checkpoint = CountingCheckpoint(failingAt: 3)
        #expect(throws: ImageError.cancelled) { try decoder.frame(at: 0, shrinkOnLoad: nil, checkpoint: checkpoint.check) }
        #expect(checkpoint.calls == 3)
        // Unstopped, it is asked once per 64 rows, and the pixels are those of a plain decode.
        let counting = CountingCheckpoint()
        let frame = try decoder.frame(at: 0, shrinkOnLoad: nil, checkpoint: counting.check)
        #expect(counting.calls == 640 / 64)
        #expect(frame == (try decoder.frame(at: 0)))
    }

    @Test func anAnimatedPNGsFramesAreStoppedInsideToo() throws {
        var encoder = ImageEncoder(type: .png)
        for seed in 1...3 { encoder.addFrame(TestImages.photo(64, 256, seed: UInt64(seed)), duration: 0.1) }
        let decoder = try ImageDecoder(data: try encoder.encode())
        try #require(decoder.frameCount == 3)
        let checkpoint = CountingCheckpoint(failingAt: 2)
        #expect(throws: ImageError.cancelled) { try decoder.frame(at: 2, shrinkOnLoad: nil, checkpoint: checkpoint.check) }
        let counting = CountingCheckpoint()
        #expect(try decoder.frame(at: 2, shrinkOnLoad: nil, checkpoint: counting.check) == (try decoder.frame(at: 2)))
        #expect(counting.calls >= 4)  // 256 rows: four calls in the frame itself
    }

    /// JPEG XL among them: libjxl aborts the process when a parallel run fails, so it is never
    /// stopped inside a frame.
    @Test(arguments: [ImageType.jpeg, .webp, .gif, .jpegXL])
    func otherFormatsAskBeforeTheyStart(_ type: ImageType) throws {
        try #require(type.isEncodable, "built without the \(type) encoder")
        let decoder = try ImageDecoder(data: try Self.file(type, rows: 64))
        let checkpoint = CountingCheckpoint(failingAt: 1)
        #expect(throws: ImageError.cancelled) { try decoder.frame(at: 0, shrinkOnLoad: nil, checkpoint: checkpoint.check) }
        #expect(checkpoint.calls == 1)
        #expect(try decoder.frame(at: 0, shrinkOnLoad: nil, checkpoint: CountingCheckpoint().check) == (try decoder.frame(at: 0)))
    }
}

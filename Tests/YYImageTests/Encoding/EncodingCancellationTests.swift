import Foundation
import TestSupport
import Testing

@testable import YYImage

/// `ImageEncoder.encode(checkpoint:)` stops inside the encoder that has a hook (libwebp's
/// progress) and between frames, with the checkpoint's error.
@Suite struct EncodingCancellationTests {
    static let picture = TestImages.photo(160, 120, seed: 5)

    static func encoder(_ type: ImageType, frames: Int = 1, usesAllCores: Bool = true) -> ImageEncoder {
        var encoder = ImageEncoder(type: type)
        encoder.usesAllCores = usesAllCores
        for index in 0..<frames { encoder.addFrame(TestImages.photo(160, 120, seed: UInt64(index + 1)), duration: 0.1) }
        return encoder
    }

    /// Call 1 comes before any work; call 2, the one that throws, from inside the encoder.
    @Test(arguments: [(ImageType.webp, 1), (.gif, 3), (.webp, 3)])
    func anEncoderWithAHookStopsFromInsideWithTheCheckpointsError(_ type: ImageType, frames: Int) throws {
        let checkpoint = CountingCheckpoint(failingAt: 2)
        #expect(throws: ImageError.cancelled) { try Self.encoder(type, frames: frames).encode(checkpoint: checkpoint.check) }
        #expect(checkpoint.calls >= 2)
    }

    /// libjxl is asked before each frame and once all are in, never inside one: a failed
    /// parallel run aborts the process.
    @Test(arguments: [true, false])
    func jpegXLStopsBetweenFramesOnAnyNumberOfThreads(usesAllCores: Bool) throws {
        try #require(ImageType.jpegXL.isEncodable, "built without libjxl")
        for failingAt in 2...4 {
            let checkpoint = CountingCheckpoint(failingAt: failingAt)
            #expect(throws: ImageError.cancelled) {
                try Self.encoder(.jpegXL, frames: 2, usesAllCores: usesAllCores).encode(checkpoint: checkpoint.check)
            }
            #expect(checkpoint.calls == failingAt)
        }
    }

    @Test(arguments: [ImageType.webp, .jpegXL, .gif])
    func aCheckpointThatNeverThrowsGivesTheSameFile(_ type: ImageType) throws {
        try #require(type.isEncodable, "built without the \(type) encoder")
        let checkpoint = CountingCheckpoint()
        let encoder = Self.encoder(type, usesAllCores: false)
        #expect(try encoder.encode(checkpoint: checkpoint.check) == (try encoder.encode()))
        #expect(checkpoint.calls >= 2)
    }

    @Test func aCheckpointThatThrowsFirstStopsEveryFormatBeforeAnyWork() throws {
        for type in ImageType.allCases where type.isEncodable {
            let checkpoint = CountingCheckpoint(failingAt: 1)
            #expect(throws: ImageError.cancelled, "\(type)") { try Self.encoder(type).encode(checkpoint: checkpoint.check) }
            #expect(checkpoint.calls == 1, "\(type)")
        }
    }
}

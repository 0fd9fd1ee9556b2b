import Foundation
import Testing

@testable import YYImage

/// The codecs and threads: independent decoders and encoders of one format on many threads at
/// once, as an image service runs them, each succeed and give what a lone call gives (any state
/// the C libraries share between calls must allow it: libjxl's own thread pool, shared, fails
/// the second of two overlapping calls); an encoder kept to the calling thread writes the same
/// picture.
struct ConcurrentCodecTests {
    /// A picture large enough to keep each call busy for a while, so that the calls overlap.
    static let picture = FormatReference.picture(width: 600, height: 400)

    /// A lossless encoder of `type` holding the picture.
    static func encoder(_ type: ImageType) -> ImageEncoder {
        var encoder = ImageEncoder(type: type)
        encoder.lossless = true
        encoder.addFrame(picture)
        return encoder
    }

    @Test(arguments: ImageType.allCases.filter(\.isEncodable))
    func independentDecodersOnManyThreadsAtOnceAllSucceed(type: ImageType) throws {
        let data = try Self.encoder(type).encode()
        let expected = try ImageDecoder(data: data).frame(at: 0)
        #expect(failuresOnManyThreads(32, expecting: expected) { try ImageDecoder(data: data).frame(at: 0) } == [])
    }

    @Test(arguments: ImageType.allCases.filter(\.isEncodable))
    func independentEncodersOnManyThreadsAtOnceAllSucceed(type: ImageType) throws {
        let encoder = Self.encoder(type)
        let expected = try ImageDecoder(data: try encoder.encode()).frame(at: 0)
        #expect(failuresOnManyThreads(16, expecting: expected) { try ImageDecoder(data: try encoder.encode()).frame(at: 0) } == [])
    }

    @Test(arguments: [ImageType.avif, .jpegXL].filter(\.isEncodable), [false, true])
    func encodingOnTheCallingThreadAloneGivesTheSamePicture(type: ImageType, lossless: Bool) throws {
        var encoder = Self.encoder(type)
        encoder.lossless = lossless
        let everyCore = try ImageDecoder(data: try encoder.encode()).frame(at: 0)
        encoder.usesAllCores = false
        let oneThread = try ImageDecoder(data: try encoder.encode()).frame(at: 0)
        #expect(oneThread.width == Self.picture.width && oneThread.height == Self.picture.height)
        if lossless {
            #expect(maxChannelDifference(oneThread, Self.picture) == 0)
        } else {
            #expect(FormatReference.meanDifference(oneThread, everyCore) < 1)
        }
    }
}

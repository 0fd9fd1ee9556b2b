import Foundation
import Testing
import YYDispatch

@testable import YYImage

/// The decoders on C libraries that keep a session between calls (AVIF, JPEG XL), used from many
/// threads at once: the session's lock serialises them, and every thread gets the right frames.
struct SharedSessionDecodingTests {
    @Test(arguments: [ImageType.avif, .jpegXL].filter(\.isEncodable))
    func framesDecodedFromManyThreadsAtOnceAreTheRightFrames(type: ImageType) throws {
        let data = try ImageArchivingTests.file(type)
        let decoder = try ImageDecoder(data: data)
        let expected = try (0..<decoder.frameCount).map { try decoder.frame(at: $0) }
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 24) { iteration in
            let index = (iteration * 7) % expected.count
            if (try? decoder.frame(at: index)) != expected[index] { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}

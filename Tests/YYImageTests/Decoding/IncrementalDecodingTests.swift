import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

/// Files fed in 1 KB chunks: frame 0 appears progressively before the data is final, and the
/// final pixels equal a one-shot decode.
@Suite(.needsSharedTestData)
struct IncrementalDecodingTests {
    static let files = [
        "demo/mew_baseline.png", "demo/mew_interlaced.png", "demo/mew_baseline.gif", "demo/mew_interlaced.gif",
        "demo/mew_baseline.jpg", "demo/mew_progressive.jpg", "demo/pia@2x.png", "compare/ermilio.gif",
        "demo/nyancat@2x.webp",
    ]

    /// The share of pixels that differ from the final image.
    static func differingShare(_ a: Bitmap, _ b: Bitmap) -> Double {
        a.pixels.withUnsafeBytes { x in
            b.pixels.withUnsafeBytes { y in
                let p = x.bindMemory(to: UInt32.self), q = y.bindMemory(to: UInt32.self)
                var differing = 0
                for i in 0..<min(p.count, q.count) where p[i] != q[i] { differing += 1 }
                return Double(differing) / Double(max(1, p.count))
            }
        }
    }

    @Test(arguments: files)
    func inOneKBChunksFrameZeroImprovesAndEndsEqualToAOneShotDecode(_ file: String) throws {
        let data = try Samples.data(file)
        let oneShot = try ImageDecoder(data: data)
        let expected = try oneShot.frame(at: 0)
        let decoder = ImageDecoder()
        var shares: [Double] = []
        var offset = 0
        let chunks = (data.count + 1023) / 1024
        var chunk = 0
        while offset < data.count {
            offset = min(data.count, offset + 1024)
            chunk += 1
            let final = offset == data.count
            let ready = try decoder.update(data: data.prefix(offset), final: final)
            #expect(final || decoder.frameCount <= 1)
            // Look at frame 0 at about 20 points along the way (every chunk would be slow in debug builds).
            if !final && ready && decoder.frameCount == 1 && chunk % max(1, chunks / 20) == 0 {
                shares.append(Self.differingShare(try decoder.frame(at: 0), expected))
            }
        }
        #expect(decoder.isFinal)
        #expect(decoder.frameCount == oneShot.frameCount)
        for index in 0..<decoder.frameCount {
            #expect(try decoder.frame(at: index) == (try oneShot.frame(at: index)), "frame \(index)")
        }
        // Progressive: partial frames were shown, they got closer to the final picture, and the
        // last ones were nearly there.
        if file.hasSuffix(".webp") {
            #expect(!shares.isEmpty)  // WebP: frame 0 once it has fully arrived (no progressive WebP)
        } else {
            #expect(shares.count >= 10, "partial frames shown: \(shares.count)")
            #expect(shares.first! > shares.last!)
            #expect(shares.last! < 0.1)
        }
    }

    @Test func updatesThatShrinkTheDataChangeTheTypeOrComeAfterFinalAreRefused() throws {
        let data = try Samples.data("demo/mew_baseline.png")
        let decoder = ImageDecoder()
        try decoder.update(data: data.prefix(2000), final: false)
        #expect(throws: ImageError.self) { try decoder.update(data: data.prefix(1000), final: false) }
        let other = ImageDecoder()
        try other.update(data: data.prefix(100), final: false)
        var gif = try Samples.data("demo/mew_baseline.gif").prefix(200)
        gif.append(contentsOf: [UInt8](repeating: 0, count: 10))
        #expect(throws: ImageError.self) { try other.update(data: gif, final: false) }
        try decoder.update(data: data, final: true)
        #expect(throws: ImageError.invalidUpdate("the data was already final")) { try decoder.update(data: data, final: true) }
    }
}

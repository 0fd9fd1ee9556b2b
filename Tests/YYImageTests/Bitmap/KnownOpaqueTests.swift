import Foundation
import Testing

@testable import YYImage

/// `Bitmap.isKnownOpaque`: set by the decoders of sources without alpha, kept by the steps that
/// cannot add transparency, cleared by any write, and never wrong.
@Suite struct KnownOpaqueTests {
    /// Whether every alpha sample is 255, read from the pixels whatever the flag says.
    static func everyAlphaIs255(_ bitmap: Bitmap) -> Bool {
        (0..<bitmap.height).allSatisfy { y in (0..<bitmap.width).allSatisfy { x in bitmap[x, y].a == 255 } }
    }

    @Test func aJPEGAndAPNGWithoutAlphaDecodeKnownOpaqueAndAPNGWithAlphaDoesNot() throws {
        let opaque = ProcessingFixtures.texture(width: 40, height: 30, seed: 2)
        var translucent = opaque
        translucent[3, 4].a = 100
        let jpeg = try ImageDecoder(data: ImageEncoder.encode(opaque, as: .jpeg)).frame(at: 0)
        let png = try ImageDecoder(data: ImageEncoder.encode(opaque, as: .png)).frame(at: 0)
        let withAlpha = try ImageDecoder(data: ImageEncoder.encode(translucent, as: .png)).frame(at: 0)
        #expect(jpeg.isKnownOpaque && Self.everyAlphaIs255(jpeg))
        #expect(png.isKnownOpaque && Self.everyAlphaIs255(png))
        #expect(!withAlpha.isKnownOpaque && !withAlpha.isOpaque)
    }

    @Test func anyWriteClearsItAndEqualityIgnoresIt() throws {
        var jpeg = try ImageDecoder(data: ImageEncoder.encode(ProcessingFixtures.texture(width: 8, height: 8), as: .jpeg)).frame(at: 0)
        let known = jpeg
        jpeg[2, 2] = RGBA(1, 2, 3, 0)
        #expect(!jpeg.isKnownOpaque && !jpeg.isOpaque)
        jpeg[2, 2] = known[2, 2]
        #expect(!jpeg.isKnownOpaque && jpeg.isOpaque && jpeg == known)
    }

    @Test(arguments: ResamplingKernel.allCases)
    func resizesAndTurnsOfAnOpaqueImageAreKnownOpaqueAndAre(_ kernel: ResamplingKernel) throws {
        let source = ProcessingFixtures.texture(width: 97, height: 61, seed: 5)
        for (width, height) in [(1, 1), (13, 7), (48, 30), (200, 131)] {
            for gap in [nil, 2.0] as [Double?] {
                var options = ResizeOptions(kernel: kernel)
                options.reducingGap = gap
                let out = Resampler.resize(source, width: width, height: height, options: options)
                #expect(out.isKnownOpaque && Self.everyAlphaIs255(out), "\(kernel) \(width)x\(height) gap \(String(describing: gap))")
            }
        }
        var jpeg = try ImageDecoder(data: ImageEncoder.encode(source, as: .jpeg)).frame(at: 0)
        jpeg = jpeg.oriented(.rightMirrored)
        #expect(jpeg.isKnownOpaque && Self.everyAlphaIs255(jpeg))
        // Premultiplying an opaque image changes nothing, so it is not done.
        let premultiplied = jpeg.premultiplied()
        #expect(premultiplied.alphaMode == .premultiplied && premultiplied.pixels == jpeg.pixels && premultiplied.isKnownOpaque)
        #expect(premultiplied.straightened().pixels == jpeg.pixels)
    }
}

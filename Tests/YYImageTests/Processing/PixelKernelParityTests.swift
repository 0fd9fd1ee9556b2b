import Foundation
import TestSupport
import Testing

@testable import YYImage

/// The AVX2 kernels against the portable loops: the same bytes for every size (remainders of the
/// 32-, 16- and 8-byte steps), kernel, alpha mode and pre-shrink.
// Serialized for the same reason as ShrinkOnLoadQualityTests: CPU-bound work, one core at a time.
@Suite(.serialized) struct PixelKernelParityTests {
    /// `body` run once with the AVX2 kernels and once with the portable loops, on this thread.
    private static func bothPaths<T>(_ body: () throws -> T) rethrows -> (simd: T, portable: T) {
        (try PixelKernels.withSIMD(true, body), try PixelKernels.withSIMD(false, body))
    }

    @Test(arguments: ResamplingKernel.allCases)
    func theSIMDAndPortableResamplersGiveTheSameBytes(_ kernel: ResamplingKernel) async throws {
        for (sourceWidth, sourceHeight) in [(97, 61), (300, 41), (40, 200)] {
            let opaque = ProcessingFixtures.texture(width: sourceWidth, height: sourceHeight, seed: 3)
            var translucent = opaque
            for y in 0..<sourceHeight { for x in 0..<sourceWidth where (x + y) % 3 == 0 { translucent[x, y].a = UInt8((x * 7 + y) % 256) } }
            for source in [opaque, translucent, translucent.converted(to: .premultiplied)] {
                // A second of resizes in a debug build: off the cooperative pool, which the
                // suites beside this one need for their servers and deadlines.
                let disagreements = try await offThePool { Self.resizesThatDisagree(source, kernel: kernel) }
                #expect(disagreements.isEmpty, "\(kernel) \(sourceWidth)x\(sourceHeight) \(source.alphaMode) → \(disagreements)")
            }
        }
    }

    /// The sizes and reducing gaps at which the two paths resize `source` to different bytes.
    private static func resizesThatDisagree(_ source: Bitmap, kernel: ResamplingKernel) -> [String] {
        let sizes = [(1, 1), (3, 2), (7, 5), (8, 3), (9, 9), (17, 4), (33, 31), (64, 16), (131, 77)]
        var disagreements: [String] = []
        for (width, height) in sizes + [(source.width * 2 + 1, source.height + 3)] {
            for gap in [nil, 2.0] as [Double?] {
                var options = ResizeOptions(kernel: kernel)
                options.reducingGap = gap
                options.usesAllCores = false
                let out = Self.bothPaths { Resampler.resize(source, width: width, height: height, options: options) }
                if out.simd.packedPixels != out.portable.packedPixels { disagreements.append("\(width)x\(height) gap \(String(describing: gap))") }
            }
        }
        return disagreements
    }

    /// Box shrinks of every factor up to 18 on each axis (blocks of 2 to 324 samples: the AVX2
    /// step of four pixels adds in uint16 up to 257, the others in uint32), at widths that leave
    /// 0 to 3 pixels past the last step and a partial block at the edge, and rows that span
    /// several of the AVX2 path's segments; straight and premultiplying as they go, which must
    /// also equal premultiplying the whole source first.
    @Test func theSIMDAndPortableBoxShrinksGiveTheSameBytes() {
        var options = ResizeOptions()
        options.usesAllCores = false
        var disagreements: [String] = []
        func compare(_ source: Bitmap, factorX: Int, factorY: Int, width: Int) {
            let cropped = source.cropped(to: PixelRect(x: 0, y: 0, width: width, height: source.height))
            for premultiplying in [false, true] {
                let out = Self.bothPaths {
                    Resampler.boxShrink(cropped, factorX: factorX, factorY: factorY, premultiplying: premultiplying, options: options)
                }
                if out.simd.packedPixels != out.portable.packedPixels {
                    disagreements.append("\(factorX)x\(factorY) width \(width) premultiplying \(premultiplying)")
                }
            }
            let first = Resampler.boxShrink(cropped.converted(to: .premultiplied), factorX: factorX, factorY: factorY, options: options)
            let fused = Resampler.boxShrink(cropped, factorX: factorX, factorY: factorY, premultiplying: true, options: options)
            if first.packedPixels != fused.packedPixels { disagreements.append("\(factorX)x\(factorY) width \(width) premultiplied first") }
        }
        let source = Self.translucent(ProcessingFixtures.texture(width: 151, height: 37, seed: 5))
        for factorX in 1...18 {
            for factorY in [1, 2, 3, 7, 18] where factorX * factorY > 1 {
                for width in [factorX * 4, factorX * 5 + 1, factorX * 7 - 1, 151] where width <= source.width {
                    compare(source, factorX: factorX, factorY: factorY, width: width)
                }
            }
        }
        // Rows wider than the AVX2 path's segments (about 1,000 pixels of whole blocks).
        let wide = Self.translucent(ProcessingFixtures.texture(width: 2_150, height: 7, seed: 6))
        for factorX in [1, 2, 3, 5, 17, 130] {
            // The C path's segment for this factor: a width ending one pixel each side of it.
            let segment = factorX * 8 * (factorX < 128 ? 128 / factorX : 1)
            for width in [2_150, segment - 1, segment + 1] { compare(wide, factorX: factorX, factorY: 3, width: width) }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// `bitmap` with alpha varying over every value.
    private static func translucent(_ bitmap: Bitmap) -> Bitmap {
        var out = bitmap
        for y in 0..<out.height { for x in 0..<out.width { out[x, y].a = UInt8((x * 37 + y * 91) % 256) } }
        return out
    }

    @Test func theSIMDAndPortablePremultipliersGiveTheSameBytes() {
        for width in [1, 7, 8, 9, 15, 16, 17, 63] {
            let source = Self.translucent(ProcessingFixtures.texture(width: width, height: 5, seed: 11))
            let out = Self.bothPaths { source.converted(to: .premultiplied) }
            #expect(out.simd.packedPixels == out.portable.packedPixels, "width \(width)")
        }
    }

    @Test func theSIMDAndPortableUnpremultipliersGiveTheSameBytes() {
        for width in [1, 7, 8, 9, 15, 16, 17, 63] {
            // Premultiplied, with some colour above its alpha (not what premultiplying gives, but
            // what a premultiplied file may hold) and some runs of eight opaque pixels.
            var source = Self.translucent(ProcessingFixtures.texture(width: width, height: 5, seed: 13)).converted(to: .premultiplied)
            for y in 0..<source.height { for x in 0..<source.width where (x / 8 + y) % 3 == 0 { source[x, y].a = 255 } }
            for y in 0..<source.height { for x in 0..<source.width where (x + y) % 5 == 0 { source[x, y].g = 255 } }
            let out = Self.bothPaths { source.converted(to: .straight) }
            #expect(out.simd.packedPixels == out.portable.packedPixels, "width \(width)")
        }
    }

    @Test func thePortableSwitchTakesEffectOnThisThreadAndIsUndone() {
        let outside = PixelKernels.usesSIMD
        #expect(!PixelKernels.withSIMD(false) { PixelKernels.usesSIMD })
        #expect(PixelKernels.usesSIMD == outside)
        #if arch(x86_64)
        // Every x86-64 machine this project runs on has AVX2; the variable may still ask for
        // the portable loops.
        if ProcessInfo.processInfo.environment["YY_PIXEL_KERNELS"] != "portable" { #expect(PixelKernels.withSIMD(true) { PixelKernels.usesSIMD }) }
        #endif
    }
}

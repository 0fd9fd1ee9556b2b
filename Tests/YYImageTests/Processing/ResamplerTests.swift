import Foundation
import Testing

@testable import YYImage

@Suite struct ResamplerTests {
    @Test(arguments: ResamplingKernel.allCases)
    func everyKernelsWeightsSumToOneInDoublesAndInFixedPoint(_ kernel: ResamplingKernel) {
        for (input, output) in [(100, 13), (13, 100), (6000, 1000), (7, 7), (1, 5), (5, 1)] {
            let axis = ResampleAxis(inputSize: input, outputSize: output, kernel: kernel)
            for i in 0..<output {
                let row = (0..<axis.taps).map { axis.weights[i * axis.taps + $0] }
                #expect(abs(row.reduce(0, +) - 1) < 1e-9, "\(kernel) \(input)→\(output) sample \(i)")
                let fixed = (0..<axis.taps).reduce(0) { $0 + Int(axis.coefficients[i * axis.taps + $1]) }
                #expect(fixed == 1 << Int(axis.precision), "\(kernel) \(input)→\(output) sample \(i)")
                #expect(axis.first[i] >= 0 && Int(axis.first[i] + axis.count[i]) <= input)
            }
        }
    }

    @Test(arguments: ResamplingKernel.allCases)
    func everyKernelIsWithinOneLevelOfAFloatReference(_ kernel: ResamplingKernel) {
        let source = ProcessingFixtures.texture(width: 97, height: 61, seed: 7)
        var options = ResizeOptions(kernel: kernel)
        options.reducingGap = nil
        for (width, height) in [(31, 17), (200, 150), (97, 20), (13, 61), (45, 120)] {
            let ours = Resampler.resize(source, width: width, height: height, options: options)
            let reference = FloatReferenceResampler.resize(source, width: width, height: height, kernel: kernel)
            var worst = 0.0
            for y in 0..<height {
                for x in 0..<width {
                    let p = ours[x, y]
                    for (c, v) in [p.r, p.g, p.b, p.a].enumerated() {
                        worst = max(worst, abs(Double(v) - reference[(y * width + x) * 4 + c].rounded()))
                    }
                }
            }
            #expect(worst <= 1, "\(kernel) to \(width)x\(height): \(worst) levels from the rounded float reference")
        }
    }

    @Test(arguments: [ResamplingKernel.lanczos3, .lanczos2])
    func lanczosWeightsTurnedTapByTapStayWithinABillionthOfTheKernel(_ kernel: ResamplingKernel) {
        // From an enlargement to a 1/600 shrink (3,601 taps a row); a tap on the centre and taps beside it.
        for (scale, count) in [(1.0, 7), (1.5, 10), (3.75, 24), (8.0, 49), (600.0, 3601)] {
            let step = 1 / scale
            for offset in [0.0, 0.5, 0.123, 0.999] {
                let x0 = -Double(count / 2) * step - offset * step
                var weights = [Double](repeating: .nan, count: count)
                weights.withUnsafeMutableBufferPointer { kernel.weights(from: x0, step: step, into: $0) }
                let worst = (0..<count).map { abs(weights[$0] - kernel.weight(x0 + Double($0) * step)) }.max() ?? .nan
                #expect(worst < 1e-9, "\(kernel), scale \(scale), offset \(offset): \(worst)")
            }
        }
    }

    @Test func theSameSizeGivesTheSamePixels() throws {
        let source = ProcessingFixtures.texture(width: 33, height: 21, alpha: true)
        for kernel in ResamplingKernel.allCases {
            let same = try ProcessingChain().resized(Resize(width: 33, height: 21, fit: .fill, options: ResizeOptions(kernel: kernel))).apply(
                to: source)
            #expect(same == source, "\(kernel)")
        }
    }

    @Test func aRedSquareOnTransparentKeepsItsHueAtEveryEdgePixel() {
        var square = Bitmap(width: 64, height: 64)
        for y in 16..<48 { for x in 16..<48 { square[x, y] = RGBA(255, 0, 0, 255) } }
        for kernel in ResamplingKernel.allCases {
            for size in [(23, 23), (150, 150), (40, 9)] {
                let resized = Resampler.resize(square, width: size.0, height: size.1, options: ResizeOptions(kernel: kernel))
                for y in 0..<resized.height {
                    for x in 0..<resized.width where resized[x, y].a > 0 {
                        let p = resized[x, y]
                        #expect(p.g == 0 && p.b == 0 && p.r > 0, "\(kernel) \(size) at \(x),\(y): \(p)")
                        if p.a >= 32 { #expect(p.r >= 245, "\(kernel) \(size) at \(x),\(y): a dark fringe \(p)") }
                    }
                }
            }
        }
    }

    @Test func thePreShrinkStaysCloseToThePureKernelAndTheBandsMatchOneThread() {
        let source = ProcessingFixtures.texture(width: 1600, height: 900, seed: 3, alpha: true)
        var pure = ResizeOptions()
        pure.reducingGap = nil
        var oneThread = ResizeOptions()
        oneThread.usesAllCores = false
        let exact = Resampler.resize(source, width: 100, height: 57, options: pure)
        let fast = Resampler.resize(source, width: 100, height: 57, options: ResizeOptions())
        #expect(psnr(exact, fast) > 30)
        #expect(Resampler.resize(source, width: 100, height: 57, options: oneThread) == fast)
        #expect(
            Resampler.resize(source, width: 1201, height: 333, options: oneThread)
                == Resampler.resize(source, width: 1201, height: 333, options: ResizeOptions()))
    }

    @Test func theShrinkThatPremultipliesAsItReadsGivesTheBytesOfPremultiplyingFirst() {
        // 1001 × 601 with factors 3 × 4: partial blocks at the right and bottom edges; large
        // enough for bands on every core, compared with one thread too.
        let source = ProcessingFixtures.texture(width: 1001, height: 601, seed: 11, alpha: true)
        for usesAllCores in [false, true] {
            var options = ResizeOptions()
            options.usesAllCores = usesAllCores
            let fused = Resampler.boxShrink(source, factorX: 3, factorY: 4, premultiplying: true, options: options)
            let first = Resampler.boxShrink(Resampler.premultiplied(source, usesAllCores: false), factorX: 3, factorY: 4, options: options)
            #expect(fused.alphaMode == .premultiplied && first.alphaMode == .premultiplied)
            #expect(fused == first, "usesAllCores \(usesAllCores)")
        }
    }

    @Test func linearLightKeepsTheAverageLightOfFineDetail() {
        // A black and white checkerboard is 50 % light: in linear light its average encodes
        // as sRGB 188, gamma-encoded averaging gives 128.
        var board = Bitmap(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { board[x, y] = (x + y) % 2 == 0 ? RGBA(0, 0, 0) : RGBA(255, 255, 255) } }
        var options = ResizeOptions(kernel: .box)
        options.linearLight = true
        let linear = Resampler.resize(board, width: 8, height: 8, options: options)
        let encoded = Resampler.resize(board, width: 8, height: 8, options: ResizeOptions(kernel: .box))
        #expect(abs(Int(linear[3, 3].r) - 188) <= 1)
        #expect(abs(Int(encoded[3, 3].r) - 128) <= 1)
    }
}

@Suite struct AlphaKernelTests {
    @Test func premultiplyingInTheKernelsMatchesTheExactFormulaForEveryPair() {
        // Every (sample, alpha) pair, in rows of odd lengths so both the 8-pixel and the tail loops run.
        var bitmap = Bitmap(width: 256, height: 256)
        for a in 0..<256 { for c in 0..<256 { bitmap[c, a] = RGBA(UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)) } }
        let premultiplied = Resampler.premultiplied(bitmap, usesAllCores: false)
        for a in 0..<256 {
            for c in 0..<256 {
                let expected = { (x: Int) in UInt8((x * a + 127) / 255) }
                #expect(premultiplied[c, a] == RGBA(expected(c), expected(255 - c), expected(c / 2), UInt8(a)), "c \(c), a \(a)")
            }
        }
        let odd = Bitmap(width: 13, height: 3, pixels: Array(bitmap.pixels.prefix(13 * 3 * 4)))!
        #expect(Resampler.premultiplied(odd, usesAllCores: false) == odd.premultiplied())
    }

    @Test func unpremultiplyingInTheKernelsMatchesTheExactFormulaForEveryPair() {
        // Every (sample, alpha) pair of a premultiplied bitmap, colour above alpha included.
        var bitmap = Bitmap(width: 256, height: 256, alphaMode: .premultiplied)
        for a in 0..<256 { for c in 0..<256 { bitmap[c, a] = RGBA(UInt8(c), UInt8(255 - c), UInt8(c / 2), UInt8(a)) } }
        var straight = bitmap
        Resampler.unpremultiply(&straight, usesAllCores: false)
        for a in 0..<256 {
            for c in 0..<256 {
                let expected = { (x: Int) in a == 0 ? 0 : UInt8(min(255, (x * 255 + a / 2) / a)) }
                #expect(straight[c, a] == RGBA(expected(c), expected(255 - c), expected(c / 2), UInt8(a)), "c \(c), a \(a)")
            }
        }
    }
}

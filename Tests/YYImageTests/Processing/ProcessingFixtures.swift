import Foundation
import TestSupport

@testable import YYImage

/// Synthetic images for the processing tests, made the same way on every run.
enum ProcessingFixtures {
    /// Smooth gradients plus seeded noise, opaque or with varying alpha.
    static func texture(width: Int, height: Int, seed: UInt64 = 1, alpha: Bool = false) -> Bitmap {
        var generator = SplitMix64(seed: seed)
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let noise = { UInt8.random(in: 0...255, using: &generator) }
                let r = UInt8((x * 255 / max(1, width - 1) + Int(noise()) / 4) / 2 + 60)
                let g = UInt8((y * 255 / max(1, height - 1) + Int(noise())) / 2)
                let b = noise()
                bitmap[x, y] = RGBA(r, g, b, alpha ? UInt8(64 + (x + y) % 192) : 255)
            }
        }
        return bitmap
    }

    /// One colour everywhere but `marker` pixels at (`x`, `y`).
    static func marked(width: Int, height: Int, at points: [(x: Int, y: Int)], colour: RGBA = RGBA(255, 0, 0)) -> Bitmap {
        var bitmap = Bitmap(filledWith: RGBA(255, 255, 255), width: width, height: height, alphaMode: .straight)
        for point in points { bitmap[point.x, point.y] = colour }
        return bitmap
    }
}

/// The separable convolution the fixed-point resampler approximates, in doubles, written from the
/// kernel formulas alone (no code shared with YYImage's resampler): straight opaque input, no
/// pre-shrink. As in Pillow, Pillow-SIMD and libvips, an axis whose size does not change is not
/// filtered, and the result of the first pass is an image, clamped to 0...255 (unrounded here).
enum FloatReferenceResampler {
    static func weight(_ kernel: ResamplingKernel, _ x: Double) -> Double {
        func sinc(_ v: Double) -> Double { v == 0 ? 1 : sin(.pi * v) / (.pi * v) }
        func cubic(_ v: Double, _ b: Double, _ c: Double) -> Double {
            let t = abs(v)
            if t < 1 { return ((12 - 9 * b - 6 * c) * t * t * t + (-18 + 12 * b + 6 * c) * t * t + (6 - 2 * b)) / 6 }
            if t < 2 { return ((-b - 6 * c) * t * t * t + (6 * b + 30 * c) * t * t + (-12 * b - 48 * c) * t + (8 * b + 24 * c)) / 6 }
            return 0
        }
        switch kernel {
        case .lanczos3: return abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0
        case .lanczos2: return abs(x) < 2 ? sinc(x) * sinc(x / 2) : 0
        case .mitchell: return cubic(x, 1.0 / 3, 1.0 / 3)
        case .catmullRom: return cubic(x, 0, 0.5)
        case .linear: return max(0, 1 - abs(x))
        case .box, .nearest: return x >= -0.5 && x < 0.5 ? 1 : 0
        }
    }

    static let supports: [ResamplingKernel: Double] = [.lanczos3: 3, .lanczos2: 2, .mitchell: 2, .catmullRom: 2, .linear: 1, .box: 0.5]

    /// For each output index, (source index, weight) pairs.
    static func taps(input: Int, output: Int, kernel: ResamplingKernel) -> [[(Int, Double)]] {
        let scale = Double(input) / Double(output)
        return (0..<output).map { i in
            let centre = (Double(i) + 0.5) * scale
            if kernel == .nearest { return [(min(input - 1, Int(centre)), 1)] }
            let filterScale = max(1, scale)
            let support = supports[kernel]! * filterScale
            let low = max(0, Int(floor(centre - support + 0.5))), high = min(input, Int(floor(centre + support + 0.5)))
            var pairs = (low..<high).map { ($0, weight(kernel, (Double($0) - centre + 0.5) / filterScale)) }
            let total = pairs.reduce(0) { $0 + $1.1 }
            pairs = pairs.map { ($0.0, $0.1 / total) }
            return pairs
        }
    }

    /// Channel values (0...255, unrounded) of `bitmap` resized.
    static func resize(_ bitmap: Bitmap, width: Int, height: Int, kernel: ResamplingKernel) -> [Double] {
        let identity = { (n: Int) in (0..<n).map { [($0, 1.0)] } }
        let horizontal = width == bitmap.width ? identity(width) : taps(input: bitmap.width, output: width, kernel: kernel)
        let vertical = height == bitmap.height ? identity(height) : taps(input: bitmap.height, output: height, kernel: kernel)
        var rows = [Double](repeating: 0, count: bitmap.height * width * 4)
        for y in 0..<bitmap.height {
            for x in 0..<width {
                for (s, w) in horizontal[x] {
                    let p = bitmap[s, y]
                    for (c, v) in [p.r, p.g, p.b, p.a].enumerated() { rows[(y * width + x) * 4 + c] += Double(v) * w }
                }
            }
        }
        rows = rows.map { min(255, max(0, $0)) }
        var out = [Double](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for (s, w) in vertical[y] {
                for i in 0..<(width * 4) { out[y * width * 4 + i] += rows[s * width * 4 + i] * w }
            }
        }
        return out.map { min(255, max(0, $0)) }
    }
}

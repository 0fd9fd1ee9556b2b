import Foundation

/// The filter a resize weighs source pixels with. Supports and shapes are the ones Pillow, libvips
/// and sharp use under the same names, so results compare one to one.
public enum ResamplingKernel: String, Sendable, CaseIterable, Codable {
    /// Lanczos, a = 3: the sharpest, with faint ringing at hard edges (the default).
    case lanczos3
    /// Lanczos, a = 2: a little softer, faster.
    case lanczos2
    /// Mitchell–Netravali cubic, B = C = 1/3: smooth, no visible ringing.
    case mitchell
    /// Catmull–Rom cubic (B = 0, C = 1/2; Pillow's BICUBIC, libvips' CUBIC).
    case catmullRom
    /// Triangle (bilinear when enlarging).
    case linear
    /// Box: the average of the pixels under each output pixel.
    case box
    /// The nearest source pixel, no filtering.
    case nearest

    /// How far from its centre the kernel reaches, in source pixels at scale 1.
    var support: Double {
        switch self {
        case .lanczos3: 3
        case .lanczos2, .mitchell, .catmullRom: 2
        case .linear: 1
        case .box, .nearest: 0.5
        }
    }

    /// The kernel's weight at distance `x` (source pixels at scale 1).
    func weight(_ x: Double) -> Double {
        switch self {
        case .lanczos3: Self.lanczos(x, lobes: 3)
        case .lanczos2: Self.lanczos(x, lobes: 2)
        case .mitchell: Self.cubic(x, b: 1.0 / 3, c: 1.0 / 3)
        case .catmullRom: Self.cubic(x, b: 0, c: 0.5)
        case .linear: max(0, 1 - abs(x))
        case .box, .nearest: (x >= -0.5 && x < 0.5) ? 1 : 0
        }
    }

    /// The kernel's weights at `x0`, `x0 + step`, … (`weights.count` of them): ``weight(_:)``'s
    /// values to within 1e-9, far finer than the 1/2^22 steps of the fixed-point taps.
    ///
    /// Lanczos kernels turn their two sines by a fixed angle from one tap to the next (a rotation,
    /// four multiplications) instead of calling `sin` twice a tap: a resize's taps are evenly
    /// spaced, and those calls are most of what working out the taps costs. Within 1/1024 of the
    /// centre, where the sines' tiny absolute error would be a large part of `sin(πx)/πx`'s
    /// numerator, the weight is computed directly.
    func weights(from x0: Double, step: Double, into weights: UnsafeMutableBufferPointer<Double>) {
        guard self == .lanczos3 || self == .lanczos2 else {
            for t in weights.indices { weights[t] = weight(x0 + Double(t) * step) }
            return
        }
        let lobes = support
        let turn = Double.pi * step
        let (stepSine, stepCosine) = (sin(turn), cos(turn))
        let (lobeStepSine, lobeStepCosine) = (sin(turn / lobes), cos(turn / lobes))
        var (sine, cosine) = (sin(Double.pi * x0), cos(Double.pi * x0))
        var (lobeSine, lobeCosine) = (sin(Double.pi * x0 / lobes), cos(Double.pi * x0 / lobes))
        for t in weights.indices {
            let x = x0 + Double(t) * step
            if abs(x) >= lobes {
                weights[t] = 0
            } else if abs(x) < 1.0 / 1024 {
                weights[t] = weight(x)
            } else {
                weights[t] = sine * lobeSine * lobes / (Double.pi * Double.pi * x * x)
            }
            (sine, cosine) = (sine * stepCosine + cosine * stepSine, cosine * stepCosine - sine * stepSine)
            (lobeSine, lobeCosine) = (lobeSine * lobeStepCosine + lobeCosine * lobeStepSine, lobeCosine * lobeStepCosine - lobeSine * lobeStepSine)
        }
    }

    private static func sinc(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        let px = Double.pi * x
        return sin(px) / px
    }

    private static func lanczos(_ x: Double, lobes: Double) -> Double {
        abs(x) < lobes ? sinc(x) * sinc(x / lobes) : 0
    }

    /// The Mitchell–Netravali family of cubics.
    private static func cubic(_ x: Double, b: Double, c: Double) -> Double {
        let x = abs(x)
        if x < 1 {
            return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
        }
        if x < 2 {
            return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}

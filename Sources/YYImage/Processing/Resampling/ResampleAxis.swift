internal import CYYPixelKernels
import Foundation

/// The filter taps of a resize along one axis: for each output sample, the first source sample it
/// reads, how many, and their weights, normalised to sum to one. Kept as doubles (for the float
/// path) and as int16 fixed point (for the C kernels).
///
/// Positions follow Pillow's convention: output sample `i` is centred on source coordinate
/// `regionStart + (i + 0.5) * scale`, and the kernel widens by the scale when shrinking.
struct ResampleAxis: Sendable {
    let inputSize: Int
    let outputSize: Int
    /// The length of each output sample's row of taps: at least its count, and even.
    let taps: Int
    /// Per output sample: the first source index read.
    let first: [Int32]
    /// Per output sample: how many source samples are read (at most `taps`).
    let count: [Int32]
    /// `taps` weights per output sample (zero past `count`), summing to 1.
    let weights: [Double]
    /// `weights` in fixed point with `precision` fractional bits, each row summing to exactly
    /// `1 << precision`, so that a flat area stays flat.
    let coefficients: [Int16]
    let precision: Int32

    /// Taps for `outputSize` samples covering `regionLength` source samples from `regionStart`
    /// (the whole input by default) of an axis of `inputSize` samples.
    init(inputSize: Int, outputSize: Int, kernel: ResamplingKernel, regionStart: Double = 0, regionLength: Double? = nil) {
        precondition(inputSize > 0 && outputSize > 0, "empty resampling axis")
        let length = regionLength ?? Double(inputSize)
        let scale = length / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = kernel == .nearest ? 0.5 : kernel.support * filterScale
        // An even row length lets the C kernels read taps in pairs (the last one padded with zero).
        let taps = Self.evenTapCount(kernel == .nearest ? 1 : Int(support.rounded(.up)) * 2 + 1)
        var first = [Int32](repeating: 0, count: outputSize)
        var count = [Int32](repeating: 0, count: outputSize)
        var weights = [Double](repeating: 0, count: outputSize * taps)
        for i in 0..<outputSize {
            let centre = regionStart + (Double(i) + 0.5) * scale
            if kernel == .nearest {
                first[i] = Int32(min(inputSize - 1, max(0, Int(centre.rounded(.down)))))
                count[i] = 1
                weights[i * taps] = 1
                continue
            }
            let low = min(inputSize - 1, max(0, Int((centre - support + 0.5).rounded(.down))))
            let high = min(inputSize, max(low + 1, Int((centre + support + 0.5).rounded(.down))))
            let n = min(taps, high - low)
            var total = 0.0
            weights.withUnsafeMutableBufferPointer { all in
                let row = UnsafeMutableBufferPointer(rebasing: all[i * taps..<i * taps + n])
                kernel.weights(from: (Double(low) - centre + 0.5) / filterScale, step: 1 / filterScale, into: row)
                for w in row { total += w }
            }
            if total == 0 {
                // A region past the edge: take the nearest edge sample.
                weights[i * taps] = 1
                total = 1
            }
            for t in 0..<n { weights[i * taps + t] /= total }
            first[i] = Int32(low)
            count[i] = Int32(n)
        }
        self.init(inputSize: inputSize, outputSize: outputSize, taps: taps, first: first, count: count, weights: weights)
    }

    /// Taps that convolve an axis of `size` samples with a symmetric `kernel` (odd length, centre
    /// in the middle) without changing its size; at the edges the taps that fall outside are left
    /// out and the rest renormalised.
    init(convolving size: Int, kernel: [Double]) {
        precondition(size > 0 && kernel.count % 2 == 1, "a convolution needs a sample and an odd kernel")
        let radius = kernel.count / 2
        let taps = Self.evenTapCount(min(kernel.count, size))
        var first = [Int32](repeating: 0, count: size), count = [Int32](repeating: 0, count: size)
        var weights = [Double](repeating: 0, count: size * taps)
        for i in 0..<size {
            let low = max(0, i - radius), high = min(size, i + radius + 1)
            var total = 0.0
            for s in low..<high { total += kernel[s - i + radius] }
            for s in low..<high { weights[i * taps + s - low] = kernel[s - i + radius] / total }
            first[i] = Int32(low)
            count[i] = Int32(high - low)
        }
        self.init(inputSize: size, outputSize: size, taps: taps, first: first, count: count, weights: weights)
    }

    /// Taps from their parts, with the fixed-point coefficients worked out.
    private init(inputSize: Int, outputSize: Int, taps: Int, first: [Int32], count: [Int32], weights: [Double]) {
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.taps = taps
        self.first = first
        self.count = count
        self.weights = weights
        (self.coefficients, self.precision) = Self.fixedPoint(weights, taps: taps, count: count)
    }

    /// `count` rounded up to even.
    private static func evenTapCount(_ count: Int) -> Int { (count + 1) & ~1 }

    /// The weights as int16 with as many fractional bits as fit (at most 22): the largest weight
    /// must stay under 2^15, and 255 times the sum of magnitudes under 2^30 (the C kernels'
    /// int32 sums). Each row's rounding residue goes to its largest weight.
    private static func fixedPoint(_ weights: [Double], taps: Int, count: [Int32]) -> ([Int16], Int32) {
        var largest = 0.0, largestRowSum = 0.0
        for row in 0..<count.count {
            var rowSum = 0.0
            for t in 0..<taps {
                let w = abs(weights[row * taps + t])
                largest = max(largest, w)
                rowSum += w
            }
            largestRowSum = max(largestRowSum, rowSum)
        }
        var precision = 22
        while precision > 8 && (largest * Double(1 << precision) >= 32767 || 255 * largestRowSum * Double(1 << precision) >= Double(1 << 30)) {
            precision -= 1
        }
        let one = 1 << precision
        var coefficients = [Int16](repeating: 0, count: weights.count)
        for row in 0..<count.count {
            var sum = 0, biggest = row * taps
            for t in 0..<Int(count[row]) {
                let i = row * taps + t
                let value = Int((weights[i] * Double(one)).rounded())
                coefficients[i] = Int16(clamping: value)
                sum += Int(coefficients[i])
                if abs(weights[i]) > abs(weights[biggest]) { biggest = i }
            }
            coefficients[biggest] = Int16(clamping: Int(coefficients[biggest]) + one - sum)
        }
        return (coefficients, Int32(precision))
    }

    /// Calls `body` with the C kernels' view of these taps.
    func withKernelAxis<R>(_ body: (UnsafePointer<yy_resample_axis>) throws -> R) rethrows -> R {
        try first.withUnsafeBufferPointer { first in
            try count.withUnsafeBufferPointer { count in
                try coefficients.withUnsafeBufferPointer { coefficients in
                    var axis = yy_resample_axis(
                        out_size: Int32(outputSize), taps: Int32(taps), precision: precision,
                        first: first.baseAddress, count: count.baseAddress, coefs: coefficients.baseAddress)
                    return try body(&axis)
                }
            }
        }
    }

    /// The source samples output samples `range` read: what a band of output rows needs.
    func sourceRange(of range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else { return 0..<0 }
        var low = Int.max, high = 0
        for i in range {
            low = min(low, Int(first[i]))
            high = max(high, Int(first[i] + count[i]))
        }
        return low..<high
    }
}

import Foundation

extension Bitmap {
    /// The peak signal-to-noise ratio between this bitmap and `other` over the red, green and
    /// blue channels of straight colour, in dB (infinite when they are equal): how the tests say
    /// how close a result lies to its reference.
    ///
    /// - Precondition: both have the same size.
    package func psnr(against other: Bitmap) -> Double {
        precondition(width == other.width && height == other.height, "PSNR of \(width)x\(height) against \(other.width)x\(other.height)")
        let x = converted(to: .straight).packedPixels, y = other.converted(to: .straight).packedPixels
        var sum = 0.0
        for i in stride(from: 0, to: x.count, by: 4) {
            for c in 0..<3 {
                let d = Double(Int(x[i + c]) - Int(y[i + c]))
                sum += d * d
            }
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(x.count / 4 * 3)))
    }
}

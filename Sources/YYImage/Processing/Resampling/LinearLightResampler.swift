import Foundation

/// The linear-light resize: sRGB samples decoded to linear light and premultiplied, filtered in
/// single precision with the same taps as the fixed-point path, then encoded again. Slower than
/// the C kernels; chosen with ``ResizeOptions/linearLight``.
enum LinearLightResampler {
    /// Rows filtered between two calls of a checkpoint.
    private static let rowsPerCheckpoint = 64

    /// `bitmap` at `width` × `height` from `region`, calling `checkpoint` every
    /// ``rowsPerCheckpoint`` rows of each pass: one that throws stops the resize.
    static func resize<Failure: Error>(
        _ bitmap: Bitmap, width: Int, height: Int, region: SourceRegion, kernel: ResamplingKernel, checkpoint: () throws(Failure) -> Void
    ) throws(Failure) -> Bitmap {
        let source = bitmap.converted(to: .straight)
        let horizontal = ResampleAxis(
            inputSize: source.width, outputSize: width, kernel: kernel,
            regionStart: region.x, regionLength: region.width)
        let vertical = ResampleAxis(
            inputSize: source.height, outputSize: height, kernel: kernel,
            regionStart: region.y, regionLength: region.height)
        let decode = (0...255).map { Float(SRGBTransfer.linear(Double($0) / 255)) }
        // Horizontal pass over every source row into premultiplied linear floats.
        var rows = [Float](repeating: 0, count: source.height * width * 4)
        try source.pixels.withUnsafeBufferPointer { src throws(Failure) in
            try rows.withUnsafeMutableBufferPointer { dst throws(Failure) in
                var linear = [Float](repeating: 0, count: source.width * 4)
                for y in 0..<source.height {
                    if y % rowsPerCheckpoint == 0 { try checkpoint() }
                    for x in 0..<source.width {
                        let i = y * source.bytesPerRow + x * 4
                        let a = Float(src[i + 3]) / 255
                        linear[x * 4] = decode[Int(src[i])] * a
                        linear[x * 4 + 1] = decode[Int(src[i + 1])] * a
                        linear[x * 4 + 2] = decode[Int(src[i + 2])] * a
                        linear[x * 4 + 3] = a
                    }
                    for x in 0..<width {
                        var sum: SIMD4<Float> = .zero
                        let first = Int(horizontal.first[x])
                        for t in 0..<Int(horizontal.count[x]) {
                            let p = (first + t) * 4
                            let w = Float(horizontal.weights[x * horizontal.taps + t])
                            sum += SIMD4(linear[p], linear[p + 1], linear[p + 2], linear[p + 3]) * w
                        }
                        let o = (y * width + x) * 4
                        dst[o] = sum.x; dst[o + 1] = sum.y; dst[o + 2] = sum.z; dst[o + 3] = sum.w
                    }
                }
            }
        }
        var out = Bitmap(width: width, height: height, alphaMode: .straight)
        try rows.withUnsafeBufferPointer { src throws(Failure) in
            try out.pixels.withUnsafeMutableBufferPointer { dst throws(Failure) in
                for y in 0..<height {
                    if y % rowsPerCheckpoint == 0 { try checkpoint() }
                    let first = Int(vertical.first[y])
                    for x in 0..<width {
                        var sum: SIMD4<Float> = .zero
                        for t in 0..<Int(vertical.count[y]) {
                            let p = ((first + t) * width + x) * 4
                            let w = Float(vertical.weights[y * vertical.taps + t])
                            sum += SIMD4(src[p], src[p + 1], src[p + 2], src[p + 3]) * w
                        }
                        let alpha = min(1, max(0, sum.w))
                        let o = (y * width + x) * 4
                        let colour = alpha > 0 ? sum / alpha : .zero
                        dst[o] = SRGBTransfer.encodedByte(Double(colour.x))
                        dst[o + 1] = SRGBTransfer.encodedByte(Double(colour.y))
                        dst[o + 2] = SRGBTransfer.encodedByte(Double(colour.z))
                        dst[o + 3] = UInt8((alpha * 255).rounded())
                    }
                }
            }
        }
        return out.converted(to: bitmap.alphaMode)
    }
}

/// The sRGB transfer function (IEC 61966-2-1).
enum SRGBTransfer {
    /// Linear light from an encoded value in 0...1.
    static func linear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// The encoded value of linear light in 0...1.
    static func encoded(_ linear: Double) -> Double {
        linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// `encoded(linear)` as a byte, clamped and rounded.
    static func encodedByte(_ linear: Double) -> UInt8 {
        UInt8((min(1, max(0, encoded(min(1, max(0, linear))))) * 255).rounded())
    }
}

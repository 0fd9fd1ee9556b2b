extension Bitmap {
    /// imgproxy's unsharp masking: a 3 × 3 convolution whose eight neighbours weigh `-weight`
    /// and whose centre weighs `divider + 8 × weight`, divided by `divider`, so that flat areas
    /// stay as they are and each colour sample moves away from its neighbours' mean by
    /// `8 × weight / divider` of the difference. The larger the weight or the smaller the
    /// divider, the sharper. Edges repeat their outer pixels; alpha is kept; colour is
    /// filtered straight (not premultiplied), so a transparent pixel's colour counts too.
    public func unsharpMasked(weight: Double, divider: Double) throws(ImageError) -> Bitmap {
        guard weight.isFinite, weight > 0, weight <= 1_000 else {
            throw .invalidParameter(name: "unsharp masking", "a weight of \(weight): give more than 0, at most 1000")
        }
        guard divider.isFinite, divider > 0, divider <= 1_000_000 else {
            throw .invalidParameter(name: "unsharp masking", "a divider of \(divider): give more than 0, at most 1000000")
        }
        let source = converted(to: .straight)
        guard width > 0, height > 0 else { return self }
        var out = source
        let centre = (divider + 8 * weight) / divider, neighbour = weight / divider
        let rowBytes = source.bytesPerRow
        source.pixels.withUnsafeBufferPointer { input in
            out.pixels.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let rows = (max(0, y - 1) * rowBytes, y * rowBytes, min(height - 1, y + 1) * rowBytes)
                    for x in 0..<width {
                        let columns = (max(0, x - 1) * 4, x * 4, min(width - 1, x + 1) * 4)
                        for c in 0..<3 {
                            var around = 0
                            for row in [rows.0, rows.1, rows.2] {
                                around += Int(input[row + columns.0 + c]) + Int(input[row + columns.1 + c]) + Int(input[row + columns.2 + c])
                            }
                            let own = Double(input[rows.1 + columns.1 + c])
                            let value = own * centre - Double(around - Int(own)) * neighbour
                            output[rows.1 + columns.1 + c] = UInt8(min(255, max(0, value.rounded())))
                        }
                    }
                }
            }
        }
        return out.converted(to: alphaMode)
    }
}

import Foundation

extension Bitmap {
    /// The largest blur or sharpen sigma accepted, in pixels (``ProcessingLimits/maxFilterSigma``).
    public static let maxFilterSigma = ProcessingLimits.maxFilterSigma

    /// Gaussian blur with standard deviation `sigma` pixels (above 0, at most 1000), separable, in
    /// premultiplied alpha so transparent pixels lend no colour.
    public func blurred(sigma: Double) throws(ImageError) -> Bitmap {
        try blurred(sigma: sigma, checkpoint: {})
    }

    /// ``blurred(sigma:)``, calling `checkpoint` between rounds of work: one that throws stops it.
    func blurred(sigma: Double, checkpoint: () throws(ImageError) -> Void) throws(ImageError) -> Bitmap {
        try Self.checkSigma(sigma, name: "blur")
        let kernel = Self.gaussian(sigma: sigma)
        // An opaque picture reads the same premultiplied or straight, and so does its blur: it is
        // filtered as it is, without the two copies (a 49 MP picture's 400 MB) the conversions cost.
        let opaque = isOpaque
        var source = opaque ? self : converted(to: .premultiplied)
        source.alphaMode = .premultiplied
        var out = try Resampler.convolve(
            source,
            horizontal: width > 1 ? ResampleAxis(convolving: width, kernel: kernel) : nil,
            vertical: height > 1 ? ResampleAxis(convolving: height, kernel: kernel) : nil,
            usesAllCores: true, checkpoint: checkpoint)
        guard !opaque else {
            out.alphaMode = alphaMode
            return out
        }
        return out.converted(to: alphaMode)
    }

    /// This bitmap with each of `areas` (clipped to it) blurred by a Gaussian of `sigma` pixels,
    /// each from the pixels around it too (as a blur of the whole picture would be there).
    public func blurringAreas(_ areas: [PixelRect], sigma: Double) throws(ImageError) -> Bitmap {
        var out = self
        let margin = Int((3 * sigma).rounded(.up)) + 1
        for area in areas {
            let x0 = max(0, area.x), y0 = max(0, area.y)
            let x1 = min(width, area.x + area.width), y1 = min(height, area.y + area.height)
            guard x0 < x1, y0 < y1 else { continue }
            // The area and a margin of three sigmas, blurred, then its middle copied back.
            let outer = PixelRect(
                x: max(0, x0 - margin), y: max(0, y0 - margin), width: min(width, x1 + margin) - max(0, x0 - margin),
                height: min(height, y1 + margin) - max(0, y0 - margin))
            let blurred = try cropped(to: outer).blurred(sigma: sigma).converted(to: out.alphaMode)
            let rowBytes = out.bytesPerRow, blurredRowBytes = blurred.bytesPerRow
            out.pixels.withUnsafeMutableBufferPointer { target in
                blurred.pixels.withUnsafeBufferPointer { source in
                    for y in y0..<y1 {
                        let from = (y - outer.y) * blurredRowBytes + (x0 - outer.x) * 4, to = y * rowBytes + x0 * 4
                        let count = (x1 - x0) * 4
                        // One row of the area at a time, as a block copy.
                        _ = UnsafeMutableBufferPointer(rebasing: target[to..<(to + count)])
                            .update(fromContentsOf: source[from..<(from + count)])
                    }
                }
            }
        }
        return out
    }

    /// Unsharp mask: each colour sample moves away from its Gaussian-blurred (`sigma`)
    /// neighbourhood by `amount` times the difference, where that difference exceeds `threshold`
    /// levels. Alpha is kept.
    public func sharpened(sigma: Double, amount: Double = 1, threshold: Int = 0) throws(ImageError) -> Bitmap {
        try sharpened(sigma: sigma, amount: amount, threshold: threshold, checkpoint: {})
    }

    /// ``sharpened(sigma:amount:threshold:)``, calling `checkpoint` while it blurs.
    func sharpened(sigma: Double, amount: Double = 1, threshold: Int = 0, checkpoint: () throws(ImageError) -> Void) throws(ImageError)
        -> Bitmap
    {
        try Self.checkSigma(sigma, name: "sharpen")
        guard amount.isFinite, (0...10).contains(amount) else {
            throw .invalidParameter(name: "sharpen", "an amount of \(amount): give 0...10")
        }
        let source = converted(to: .straight)
        let blur = try source.blurred(sigma: sigma, checkpoint: checkpoint)
        var out = source
        let limit = max(0, threshold)
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            blur.pixels.withUnsafeBufferPointer { blurred in
                for y in 0..<height {
                    var i = y * bytesPerRow
                    for _ in 0..<width {
                        for c in 0..<3 {
                            let difference = Int(pixels[i + c]) - Int(blurred[i + c])
                            guard abs(difference) > limit else { continue }
                            let value = Double(pixels[i + c]) + amount * Double(difference)
                            pixels[i + c] = UInt8(min(255, max(0, value.rounded())))
                        }
                        i += 4
                    }
                }
            }
        }
        return out.converted(to: alphaMode)
    }

    private static func checkSigma(_ sigma: Double, name: String) throws(ImageError) {
        guard ProcessingLimits.isValidFilterSigma(sigma) else {
            throw .invalidParameter(name: name, "a sigma of \(sigma): give more than 0, at most \(Int(maxFilterSigma)) pixels")
        }
    }

    /// A normalised Gaussian reaching 3 sigma either side (at least one pixel). The centre's
    /// weight is 1 whatever the sigma, so a sigma whose square underflows gives the identity,
    /// not 0 / 0.
    static func gaussian(sigma: Double) -> [Double] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        let weights = (-radius...radius).map { $0 == 0 ? 1 : exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }
}

/// The bounds every processing step keeps to, so that hostile parameters get a typed error instead
/// of an allocation the size of a small planet.
public enum ProcessingLimits {
    /// The most pixels a step may produce: 100 million (400 MB of RGBA).
    public static let maxOutputPixels = 100_000_000

    /// The sides a resize box may give, in pixels. Parsers of outside input (`yy serve`'s URLs)
    /// take their ranges from these constants, so that what they accept the steps accept too.
    public static let sides = 1...(1 << 24)
    /// The standard deviations blur and sharpen take, in pixels: above 0 (a sigma far below one
    /// pixel is a near-identity filter, not an error), at most this.
    public static let maxFilterSigma = 1000.0
    /// The thresholds trim takes, in levels.
    public static let trimThresholds = 0...255

    /// Whether blur and sharpen take `sigma`: finite, above 0, at most ``maxFilterSigma``.
    public static func isValidFilterSigma(_ sigma: Double) -> Bool {
        sigma.isFinite && sigma > 0 && sigma <= maxFilterSigma
    }

    /// Throws unless `width` × `height` is a positive size of at most ``maxOutputPixels``.
    static func checkOutput(width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .invalidParameter(name: "size", "an output of \(width)x\(height) pixels: both sides must be at least 1")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= maxOutputPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maxOutputPixels)
        }
    }
}

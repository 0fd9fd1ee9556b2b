/// The bounds every processing step keeps to, so that hostile parameters get a typed error instead
/// of an allocation the size of a small planet.
public enum ProcessingLimits {
    /// The most pixels a step may produce: 100 million (400 MB of RGBA).
    public static let maxOutputPixels = 100_000_000

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

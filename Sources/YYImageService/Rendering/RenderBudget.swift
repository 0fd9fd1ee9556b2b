import YYImage

/// What one render may cost, checked once its plan is known and before any frame is decoded
/// past the first: the result's pixels summed over its frames, and an estimate of the memory
/// the render holds at its peak. A request over either is refused with a 422 before the work.
struct RenderBudget: Sendable {
    /// The most result pixels, summed over the frames kept.
    let resultPixels: Int
    /// The most bytes one render is estimated to hold.
    let memoryBytes: Int

    /// Bytes an encoder holds per pixel of its picture while it encodes, the decoded source and
    /// the result's own RGBA included when they are of the same size: the slope of peak RSS
    /// between 1024² and 2048² conversions with a release `yy` (`Benchmarks/scripts/encoder-memory`,
    /// recorded in Benchmarks/README.md). libjxl holds over a hundred bytes a pixel.
    static func encoderBytesPerPixel(_ type: ImageType) -> Int {
        switch type {
        case .jpeg: 5
        case .webp, .gif, .tiff: 6
        case .png, .icns: 10
        // ICO entries are PNG or BMP.
        case .bmp, .ico: 13
        case .jpeg2000: 23
        case .jpegXL: 104
        // HEIC is never written; counted as the other HEVC-era codec if it were.
        case .avif, .heic: 20
        // SVG is passed through, never encoded.
        case .svg: 0
        }
    }

    /// Throws when a render of `frames` frames decoded at `decoded` pixels each (the canvas,
    /// or the shrunk size) to `result` pixels each, as `type`, is over the budget.
    func check(decoded: (width: Int, height: Int), result: (width: Int, height: Int), frames: Int, type: ImageType)
        throws(ImageError)
    {
        let resultArea = Self.area(result), decodedArea = Self.area(decoded)
        let resultTotal = Self.product(resultArea, max(1, frames))
        guard resultTotal <= resultPixels else {
            throw .invalidParameter(
                name: "result", "\(result.width)x\(result.height) × \(max(1, frames)) frames is over the limit of \(resultPixels) pixels")
        }
        // The decoded frame (twice for an animation: the canvas and the frame composed on it),
        // the frames the encoder is given, and the encoder's own working set on one of them.
        let decodedBytes = Self.product(decodedArea, frames > 1 ? 8 : 4)
        let keptBytes = Self.product(resultTotal, 4)
        let encoderBytes = Self.product(resultArea, Self.encoderBytesPerPixel(type))
        let estimate = Self.sum(decodedBytes, keptBytes, encoderBytes)
        guard estimate <= memoryBytes else {
            throw .invalidParameter(
                name: "result",
                "\(result.width)x\(result.height) as \(type.rawValue) needs about \(estimate >> 20) MB, over the limit of \(memoryBytes >> 20) MB")
        }
    }

    private static func area(_ size: (width: Int, height: Int)) -> Int { product(max(0, size.width), max(0, size.height)) }

    /// `a × b`, or `Int.max` when it overflows.
    private static func product(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : value
    }

    private static func sum(_ values: Int...) -> Int {
        values.reduce(0) { total, value in
            let (next, overflow) = total.addingReportingOverflow(value)
            return overflow ? .max : next
        }
    }
}

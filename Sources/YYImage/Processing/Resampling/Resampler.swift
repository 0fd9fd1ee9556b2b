internal import CYYPixelKernels
import Dispatch
internal import YYDispatch

/// Resizes RGBA8 bitmaps: premultiply (inside the integer box pre-shrink when there is one),
/// separable convolution in the C kernels (one pass into a band buffer, then the other, in the
/// cheaper order), unpremultiply.
/// Output rows are cut into bands that run on separate cores; each band filters just the source
/// rows it reads. Long convolutions are cut into more slices than cores, with a checkpoint between
/// rounds, so that a deadline stops them within about a second.
enum Resampler {
    /// `bitmap` at `width` × `height`, filtered from `region` of it (the whole bitmap by default;
    /// fractional regions are sampled where they lie). The result has the bitmap's alpha mode.
    static func resize(_ bitmap: Bitmap, width: Int, height: Int, region: SourceRegion? = nil, options: ResizeOptions) -> Bitmap {
        resize(bitmap, width: width, height: height, region: region, options: options, checkpoint: { () throws(Never) in })
    }

    /// ``resize(_:width:height:region:options:)``, calling `checkpoint` between rounds of work: one
    /// that throws stops the resize there.
    static func resize<Failure: Error>(
        _ bitmap: Bitmap, width: Int, height: Int, region: SourceRegion? = nil, options: ResizeOptions,
        checkpoint: () throws(Failure) -> Void
    ) throws(Failure) -> Bitmap {
        precondition(width > 0 && height > 0 && bitmap.width > 0 && bitmap.height > 0, "empty resize")
        var region = region ?? SourceRegion(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height))
        if width == bitmap.width && height == bitmap.height && region.isWhole(of: bitmap) { return bitmap }
        if options.linearLight {
            return try LinearLightResampler.resize(
                bitmap, width: width, height: height, region: region, kernel: options.kernel, checkpoint: checkpoint)
        }
        let mode = bitmap.alphaMode
        var source = bitmap
        // A straight source is read once to learn whether it is opaque (unless it is known);
        // a premultiplied one needs no premultiplying either way.
        let opaque = mode == .straight ? bitmap.isOpaque : bitmap.isKnownOpaque
        let filtersAlpha = mode == .straight && !opaque
        if let (fx, fy) = preShrinkFactors(width: width, height: height, region: region, options: options) {
            // The shrink premultiplies each block's rows as it reads them: no premultiplied copy
            // of the whole source is made (on a 24 MP photo, 96 MB of fresh pages to fault in).
            source = boxShrink(source, factorX: fx, factorY: fy, premultiplying: filtersAlpha, options: options)
            region = region.scaled(x: 1 / Double(fx), y: 1 / Double(fy))
        } else if filtersAlpha {
            source = premultiplied(source, usesAllCores: options.usesAllCores)
        }
        var out = try convolve(source, width: width, height: height, region: region, options: options, checkpoint: checkpoint)
        if filtersAlpha {
            unpremultiply(&out, usesAllCores: options.usesAllCores)
            out.alphaMode = .straight
            return out
        }
        out.alphaMode = mode
        // Every row of taps sums to exactly one, so a flat alpha of 255 stays 255.
        if opaque { out.markOpaque() }
        return out
    }

    /// The integer box pre-shrink's factors for `options.reducingGap`, `nil` when neither axis
    /// shrinks by 2 or more before the kernel is still `gap` times the target.
    private static func preShrinkFactors(width: Int, height: Int, region: SourceRegion, options: ResizeOptions) -> (Int, Int)? {
        guard let gap = options.reducingGap, options.kernel != .nearest, gap >= 1 else { return nil }
        let fx = Int(region.width / Double(width) / gap), fy = Int(region.height / Double(height) / gap)
        guard fx >= 2 || fy >= 2 else { return nil }
        return (max(1, fx), max(1, fy))
    }

    /// The separable convolution, skipping an axis whose size and region are unchanged.
    private static func convolve<Failure: Error>(
        _ source: Bitmap, width: Int, height: Int, region: SourceRegion, options: ResizeOptions, checkpoint: () throws(Failure) -> Void
    ) throws(Failure) -> Bitmap {
        let resizesRows = !(width == source.width && region.x == 0 && region.width == Double(source.width))
        let resizesColumns = !(height == source.height && region.y == 0 && region.height == Double(source.height))
        let horizontal =
            resizesRows
            ? ResampleAxis(
                inputSize: source.width, outputSize: width, kernel: options.kernel,
                regionStart: region.x, regionLength: region.width) : nil
        let vertical =
            resizesColumns
            ? ResampleAxis(
                inputSize: source.height, outputSize: height, kernel: options.kernel,
                regionStart: region.y, regionLength: region.height) : nil
        return try convolve(source, horizontal: horizontal, vertical: vertical, usesAllCores: options.usesAllCores, checkpoint: checkpoint)
    }

    /// `source` filtered by `horizontal` along its rows, then by `vertical` along its columns (`nil`
    /// leaves an axis as it is). Output rows are cut into bands, one per core on large images;
    /// each band filters horizontally just the source rows its own rows read. `checkpoint` runs
    /// before each round of bands; one that throws stops the convolution there.
    static func convolve<Failure: Error>(
        _ source: Bitmap, horizontal: ResampleAxis?, vertical: ResampleAxis?, usesAllCores: Bool, checkpoint: () throws(Failure) -> Void
    ) throws(Failure) -> Bitmap {
        let width = horizontal?.outputSize ?? source.width, height = vertical?.outputSize ?? source.height
        let bands = bandCount(pixels: max(source.width * source.height, width * height), outputRows: height, usesAllCores: usesAllCores)
        let inStride = source.bytesPerRow
        let verticalFirst = horizontal.flatMap { h in vertical.map { v in Self.filtersColumnsFirst(h, v) } } ?? false
        let work = multiplyAdds(source, horizontal, vertical, verticalFirst: verticalFirst)
        let slices = sliceCount(bands: bands, outputRows: height, multiplyAdds: work)
        // Every output row is written by one slice (a checkpoint that throws drops the bitmap).
        return try Bitmap(uninitializedWidth: width, height: height, alphaMode: source.alphaMode) { (dst, outStride) throws(Failure) in
            try source.pixels.withUnsafeBufferPointer { src throws(Failure) in
                let input = SendablePointer(src.baseAddress!), output = SendableMutablePointer(dst.baseAddress!)
                try forEachSlice(of: height, slices: slices, bands: bands, checkpoint: checkpoint) { rows in
                    let needed = vertical?.sourceRange(of: rows) ?? rows
                    let target = output.pointer + rows.lowerBound * outStride
                    let firstRow = input.pointer + needed.lowerBound * inStride
                    switch (horizontal, vertical) {
                    case (let horizontal?, nil):
                        horizontal.withKernelAxis { yy_resample_horizontal(firstRow, inStride, target, outStride, Int32(rows.count), $0) }
                    case (nil, let vertical?):
                        vertical.withKernelAxis {
                            yy_resample_vertical(
                                firstRow, inStride, Int32(needed.lowerBound), target, outStride,
                                Int32(rows.lowerBound), Int32(rows.count), width * 4, $0)
                        }
                    case (let horizontal?, let vertical?) where verticalFirst:
                        // Columns first: the band's output rows at the source's width, then along each
                        // row. The first pass writes every byte of the band that the second reads.
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rows.count * inStride) { band in
                            vertical.withKernelAxis {
                                yy_resample_vertical(
                                    firstRow, inStride, Int32(needed.lowerBound), band.baseAddress, inStride,
                                    Int32(rows.lowerBound), Int32(rows.count), source.width * 4, $0)
                            }
                            horizontal.withKernelAxis {
                                yy_resample_horizontal(band.baseAddress, inStride, target, outStride, Int32(rows.count), $0)
                            }
                        }
                    case (let horizontal?, let vertical?):
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: needed.count * width * 4) { band in
                            horizontal.withKernelAxis {
                                yy_resample_horizontal(firstRow, inStride, band.baseAddress, width * 4, Int32(needed.count), $0)
                            }
                            vertical.withKernelAxis {
                                yy_resample_vertical(
                                    band.baseAddress, width * 4, Int32(needed.lowerBound), target, outStride,
                                    Int32(rows.lowerBound), Int32(rows.count), width * 4, $0)
                            }
                        }
                    case (nil, nil):
                        for row in rows {
                            (target + (row - rows.lowerBound) * outStride).update(from: input.pointer + row * inStride, count: width * 4)
                        }
                    }
                }
            }
        }
    }

    /// The multiply-adds of a convolution: each pass's output samples times its taps.
    private static func multiplyAdds(_ source: Bitmap, _ horizontal: ResampleAxis?, _ vertical: ResampleAxis?, verticalFirst: Bool) -> Double {
        let (inWidth, inHeight) = (Double(source.width), Double(source.height))
        let (hTaps, vTaps) = (Double(horizontal?.taps ?? 0), Double(vertical?.taps ?? 0))
        let outWidth = Double(horizontal?.outputSize ?? source.width), outHeight = Double(vertical?.outputSize ?? source.height)
        let samples =
            verticalFirst
            ? outHeight * inWidth * vTaps + outHeight * outWidth * hTaps
            : inHeight * outWidth * hTaps + outHeight * outWidth * vTaps
        return 4 * samples
    }

    /// Multiply-adds a slice may hold: about a quarter of a second of one core's work, so that a
    /// checkpoint between rounds stops a long convolution soon after its deadline. (The C kernels
    /// ran 7 G a second on one core in the 2x enlargement row of Benchmarks/README.md.)
    static let multiplyAddsPerSlice = 2_000_000_000.0

    /// Slices for `multiplyAdds` over `outputRows` rows cut into `bands`: `bands` when the
    /// work is short, else a multiple of it with at most ``multiplyAddsPerSlice`` each.
    static func sliceCount(bands: Int, outputRows: Int, multiplyAdds: Double) -> Int {
        let rounds = max(1, Int((multiplyAdds / Double(bands) / multiplyAddsPerSlice).rounded(.up)))
        return max(1, min(outputRows, bands * rounds))
    }

    /// Whether filtering columns first costs less. Costs are tap counts per pixel, a vertical tap
    /// weighted against a horizontal one as measured with AVX2 on 24 MP shrinks and 2 MP
    /// enlargements: 0.6 while its few rows stay in the first-level cache, 1.5 once it reads many
    /// rows a pixel and memory, not arithmetic, bounds it.
    static func filtersColumnsFirst(_ horizontal: ResampleAxis, _ vertical: ResampleAxis) -> Bool {
        let (inWidth, outWidth) = (Double(horizontal.inputSize), Double(horizontal.outputSize))
        let (inHeight, outHeight) = (Double(vertical.inputSize), Double(vertical.outputSize))
        let (hTaps, vTaps) = (Double(horizontal.taps), Double(vertical.taps) * (vertical.taps <= 8 ? 0.6 : 1.5))
        let rowsFirst = inHeight * outWidth * hTaps + outHeight * outWidth * vTaps
        let columnsFirst = outHeight * inWidth * vTaps + outHeight * outWidth * hTaps
        // On a tie (a blur: no size changes) columns first, whose bands read no rows twice.
        return columnsFirst <= rowsFirst
    }

    /// `bitmap` (straight) with colour multiplied by alpha, in bands on large images: read once and
    /// written once, with no copy made first.
    static func premultiplied(_ bitmap: Bitmap, usesAllCores: Bool) -> Bitmap {
        let (width, inStride) = (bitmap.width, bitmap.bytesPerRow)
        let bands = bandCount(pixels: bitmap.width * bitmap.height, outputRows: bitmap.height, usesAllCores: usesAllCores)
        // Every row of the result is written by one band.
        return Bitmap(uninitializedWidth: width, height: bitmap.height, alphaMode: .premultiplied) { dst, outStride in
            bitmap.pixels.withUnsafeBufferPointer { src in
                let input = SendablePointer(src.baseAddress!), output = SendableMutablePointer(dst.baseAddress!)
                forEachBand(of: bitmap.height, bands: bands) { rows in
                    yy_premultiply(
                        input.pointer + rows.lowerBound * inStride, inStride, output.pointer + rows.lowerBound * outStride, outStride,
                        Int32(width), Int32(rows.count))
                }
            }
        }
    }

    /// Divides colour by alpha in place, in bands on large images.
    static func unpremultiply(_ bitmap: inout Bitmap, usesAllCores: Bool) {
        let (width, height, stride) = (bitmap.width, bitmap.height, bitmap.bytesPerRow)
        let bands = bandCount(pixels: width * height, outputRows: height, usesAllCores: usesAllCores)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            let base = SendableMutablePointer(pixels.baseAddress!)
            forEachBand(of: height, bands: bands) { rows in
                yy_unpremultiply(base.pointer + rows.lowerBound * stride, stride, Int32(width), Int32(rows.count))
            }
        }
    }

    /// Averages `factorX` × `factorY` blocks (partial blocks at the right and bottom edges).
    /// `premultiplying` (for a straight source) averages colour times alpha, giving a
    /// premultiplied result: the same bytes as premultiplying the source first, without a
    /// premultiplied copy of it (the kernel multiplies each sample as it reads it).
    static func boxShrink(_ source: Bitmap, factorX: Int, factorY: Int, premultiplying: Bool = false, options: ResizeOptions) -> Bitmap {
        let width = (source.width + factorX - 1) / factorX, height = (source.height + factorY - 1) / factorY
        let bands = bandCount(pixels: source.width * source.height, outputRows: height, usesAllCores: options.usesAllCores)
        let inStride = source.bytesPerRow
        // Every output pixel is one block's average.
        return Bitmap(uninitializedWidth: width, height: height, alphaMode: premultiplying ? .premultiplied : source.alphaMode) { dst, outStride in
            source.pixels.withUnsafeBufferPointer { src in
                let input = SendablePointer(src.baseAddress!), output = SendableMutablePointer(dst.baseAddress!)
                forEachBand(of: height, bands: bands) { rows in
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: source.width * 4) { sums in
                        yy_box_shrink(
                            input.pointer, inStride, Int32(source.width), Int32(source.height),
                            output.pointer + rows.lowerBound * outStride, outStride, Int32(factorX), Int32(factorY),
                            Int32(rows.lowerBound), Int32(rows.count), premultiplying ? 1 : 0, sums.baseAddress)
                    }
                }
            }
        }
    }

    /// The cores this process may keep busy (its cgroup's quota included), read once.
    private static let processorCount = SystemProcessors.count()

    /// One band for work on fewer than ``ResizeOptions/parallelThreshold`` `pixels` (or when told),
    /// else one per core.
    static func bandCount(pixels: Int, outputRows: Int, usesAllCores: Bool) -> Int {
        guard usesAllCores, pixels >= ResizeOptions.parallelThreshold else { return 1 }
        return max(1, min(outputRows, processorCount))
    }

    /// Runs `body` over `bands` contiguous slices of `0..<rows`, on separate threads when more
    /// than one.
    static func forEachBand(of rows: Int, bands: Int, _ body: (Range<Int>) -> Void) {
        forEachSlice(of: rows, slices: bands, bands: bands, checkpoint: { () throws(Never) in }, body)
    }

    /// Runs `body` over `slices` contiguous slices of `0..<rows`, in rounds of `bands` on separate
    /// threads, calling `checkpoint` on this thread before each round: one that throws leaves the
    /// remaining slices undone.
    static func forEachSlice<Failure: Error>(
        of rows: Int, slices: Int, bands: Int, checkpoint: () throws(Failure) -> Void, _ body: (Range<Int>) -> Void
    ) throws(Failure) {
        @Sendable func slice(_ index: Int) -> Range<Int> { (rows * index / slices)..<(rows * (index + 1) / slices) }
        var first = 0
        while first < slices {
            try checkpoint()
            let round = min(bands, slices - first), start = first
            if round == 1 {
                body(slice(start))
            } else {
                withoutActuallyEscaping(body) { body in
                    let work = UncheckedBandBody(body: body)
                    DispatchQueue.concurrentPerform(iterations: round) { work.body(slice(start + $0)) }
                }
            }
            first += round
        }
    }
}

/// A rectangle of the source in pixel coordinates, fractional where a crop or a focal point puts it.
struct SourceRegion: Sendable, Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    func isWhole(of bitmap: Bitmap) -> Bool {
        x == 0 && y == 0 && width == Double(bitmap.width) && height == Double(bitmap.height)
    }

    func scaled(x sx: Double, y sy: Double) -> SourceRegion {
        SourceRegion(x: x * sx, y: y * sy, width: width * sx, height: height * sy)
    }
}

/// A pointer handed to the bands of one resize. Each band writes only its own rows, and the
/// caller waits for all of them before the buffer's owner goes on.
struct SendablePointer: @unchecked Sendable {
    let pointer: UnsafePointer<UInt8>
    init(_ pointer: UnsafePointer<UInt8>) { self.pointer = pointer }
}

/// The writable twin of ``SendablePointer``, under the same rule.
struct SendableMutablePointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>
    init(_ pointer: UnsafeMutablePointer<UInt8>) { self.pointer = pointer }
}

/// A band body shared with `concurrentPerform`, which runs it on several threads and returns only
/// when every run ended; the bodies touch disjoint rows.
private struct UncheckedBandBody: @unchecked Sendable {
    let body: (Range<Int>) -> Void
}

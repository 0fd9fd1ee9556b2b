internal import CYYImageShims
internal import CYYPixelKernels

/// libpng's decoder, called through the C shim (``PNGWriter`` encodes).
enum LibPNG {
    /// Decodes a complete or partial PNG stream of a known size into straight RGBA8, known to be
    /// opaque when every row arrived and the image has neither alpha nor tRNS.
    /// With `final` false a stream that stops early gives the rows that arrived; with `final`
    /// true it is an error.
    /// `verified` says the stream's chunk CRCs were checked already (rebuilt APNG frames), so
    /// zlib's Adler-32 of the same data is skipped. `checkpoint` is asked every
    /// `YY_PNG_ROWS_PER_STOP_CHECK` rows, and its error ends the decode.
    static func decode(
        _ bytes: ArraySlice<UInt8>, width: Int, height: Int, final: Bool, verified: Bool = false, checkpoint: CodecCheckpoint? = nil
    ) throws(ImageError) -> Bitmap {
        var result = yy_png_decode_result()
        func run(_ output: UnsafeMutableBufferPointer<UInt8>, _ stride: Int) throws(ImageError) {
            // The checkpoint outlives the call: C gets it unretained.
            let context = checkpoint.map { Unmanaged.passUnretained($0).toOpaque() }
            withExtendedLifetime(checkpoint) {
                bytes.withUnsafeBufferPointer { input in
                    yy_png_decode_rgba(
                        input.baseAddress, input.count, UInt32(width), UInt32(height), verified ? 1 : 0, output.baseAddress, stride,
                        context == nil ? nil : askCheckpoint, context, &result)
                }
            }
            if let error = error(of: result, checkpoint: checkpoint) { throw error }
            if final && result.complete == 0 { throw .truncated(.png) }
        }
        // Rows that have not arrived (partial data) stay transparent.
        var bitmap = Bitmap(width: width, height: height)
        let stride = bitmap.bytesPerRow
        try bitmap.pixels.withUnsafeMutableBufferPointer { (output: inout UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
            try run(output, stride)
        }
        // Without alpha or tRNS every row written is opaque, and rows not written are transparent.
        // libpng reaches IEND even after image data that ends short (a warning), so the rows are
        // counted; interlaced images, whose passes fill rows out of order, are left to a scan.
        if result.has_alpha == 0 && result.interlaced == 0 && result.rows_delivered == height { bitmap.markOpaque() }
        return bitmap
    }

    /// Decodes a complete, non-interlaced PNG stream and averages each `factor` × `factor` block
    /// of it as its rows arrive (partial blocks at the right and bottom edges), so that no more
    /// than `factor` rows of the whole image are ever held: the same bytes as the whole decode
    /// box-shrunk by `Resampler.boxShrink`. With `hasAlpha` (an alpha channel or tRNS) colour is
    /// averaged premultiplied, as the resampler averages it, and the result given back straight
    /// (premultiplying it again gives the averages back exactly).
    static func decode(
        _ bytes: ArraySlice<UInt8>, width: Int, height: Int, shrinkingBy factor: Int, hasAlpha: Bool,
        checkpoint: CodecCheckpoint? = nil
    ) throws(ImageError) -> Bitmap {
        precondition(factor >= 2, "a shrink by 2 or more")
        let stride = width * 4
        let shrinker = BandShrinker(
            width: width, factor: factor, outputHeight: (height + factor - 1) / factor, premultiplying: hasAlpha)
        var result = yy_png_decode_result()
        let stopContext = checkpoint.map { Unmanaged.passUnretained($0).toOpaque() }
        withExtendedLifetime((checkpoint, shrinker)) {
            bytes.withUnsafeBufferPointer { input in
                yy_png_decode_rgba_bands(
                    input.baseAddress, input.count, UInt32(width), UInt32(height), shrinker.band, stride, UInt32(factor),
                    shrinkBand, Unmanaged.passUnretained(shrinker).toOpaque(),
                    stopContext == nil ? nil : askCheckpoint, stopContext, &result)
            }
        }
        if let error = error(of: result, checkpoint: checkpoint) { throw error }
        guard result.complete != 0, result.rows_delivered == height else { throw .truncated(.png) }
        var bitmap = shrinker.output
        if hasAlpha {
            bitmap.alphaMode = .premultiplied
            return bitmap.converted(to: .straight)
        }
        bitmap.markOpaque()
        return bitmap
    }

    /// The rows of one band of a PNG being decoded in bands, and the shrunk image they go into.
    private final class BandShrinker {
        let width: Int
        let factor: Int
        /// Whether colour is averaged times alpha (the output is then premultiplied).
        let premultiplying: Bool
        /// `factor` rows of `width` RGBA pixels.
        let band: UnsafeMutablePointer<UInt8>
        /// The box kernel's column sums: 4 per source pixel.
        let sums: UnsafeMutablePointer<UInt32>
        var output: Bitmap

        init(width: Int, factor: Int, outputHeight: Int, premultiplying: Bool) {
            self.width = width
            self.factor = factor
            self.premultiplying = premultiplying
            band = .allocate(capacity: width * 4 * factor)
            sums = .allocate(capacity: width * 4)
            output = Bitmap(width: (width + factor - 1) / factor, height: outputHeight)
        }

        deinit {
            band.deallocate()
            sums.deallocate()
        }

        /// Averages the band's `rows` rows (image rows from `firstRow`) into output row `firstRow / factor`.
        func shrink(firstRow: Int, rows: Int) {
            let outStride = output.bytesPerRow
            output.pixels.withUnsafeMutableBufferPointer { pixels in
                yy_box_shrink(
                    band, width * 4, Int32(width), Int32(rows), pixels.baseAddress! + firstRow / factor * outStride, outStride,
                    Int32(factor), Int32(factor), 0, 1, premultiplying ? 1 : 0, sums)
            }
        }
    }

    /// The band callback handed to C: the context is an unretained ``BandShrinker``.
    private static let shrinkBand: yy_png_band_ready = { context, firstRow, rows in
        guard let context else { return 1 }
        Unmanaged<BandShrinker>.fromOpaque(context).takeUnretainedValue().shrink(firstRow: Int(firstRow), rows: Int(rows))
        return 0
    }

    /// The stop callback handed to C: the context is an unretained ``CodecCheckpoint``.
    private static let askCheckpoint: yy_png_should_stop = { context in
        guard let context else { return 0 }
        return Unmanaged<CodecCheckpoint>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
    }

    /// What went wrong in a decode that ended with `result`, if anything: the checkpoint's
    /// error when it stopped the decode, a truncation, or libpng's message.
    private static func error(of result: yy_png_decode_result, checkpoint: CodecCheckpoint?) -> ImageError? {
        if result.stopped != 0, let error = checkpoint?.stopError { return error }
        guard result.failed != 0 else { return nil }
        let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return message == "unexpected end of data" ? .truncated(.png) : .malformed(.png, message)
    }
}

internal import CPNG
internal import CYYImageShims

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
            if result.stopped != 0, let error = checkpoint?.stopError { throw error }
            if result.failed != 0 {
                let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                throw message == "unexpected end of data" ? .truncated(.png) : .malformed(.png, message)
            }
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

    /// The stop callback handed to C: the context is an unretained ``CodecCheckpoint``.
    private static let askCheckpoint: yy_png_should_stop = { context in
        guard let context else { return 0 }
        return Unmanaged<CodecCheckpoint>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

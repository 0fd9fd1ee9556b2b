internal import CPNG
internal import CYYImageShims

/// libpng, called through the C shim (decoding) and the simplified API (encoding).
enum LibPNG {
    /// Decodes a complete or partial PNG stream of a known size into straight RGBA8.
    /// With `final` false a stream that stops early gives the rows that arrived; with `final`
    /// true it is an error.
    /// `verified` says the stream's chunk CRCs were checked already (rebuilt APNG frames), so
    /// zlib's Adler-32 of the same data is skipped.
    static func decode(_ bytes: ArraySlice<UInt8>, width: Int, height: Int, final: Bool, verified: Bool = false) throws(ImageError) -> Bitmap {
        var result = yy_png_decode_result()
        func run(_ output: UnsafeMutableBufferPointer<UInt8>, _ stride: Int) throws(ImageError) {
            bytes.withUnsafeBufferPointer { input in
                yy_png_decode_rgba(input.baseAddress, input.count, UInt32(width), UInt32(height), final ? 1 : 0,
                                   verified ? 1 : 0, output.baseAddress, stride, &result)
            }
            if result.failed != 0 {
                let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                throw message == "unexpected end of data" ? .truncated(.png) : .malformed(.png, message)
            }
            if final && result.complete == 0 { throw .truncated(.png) }
        }
        if final {
            // The sequential reader writes every row or fails.
            return try Bitmap(uninitializedWidth: width, height: height, initialize: run)
        }
        // Partial data: rows that have not arrived stay transparent.
        var bitmap = Bitmap(width: width, height: height)
        let stride = bitmap.bytesPerRow
        try bitmap.pixels.withUnsafeMutableBufferPointer { (output: inout UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
            try run(output, stride)
        }
        return bitmap
    }

    /// Encodes pixels as an 8-bit PNG stream: RGBA, or RGB when `withAlpha` is false (by
    /// default, when every pixel is opaque).
    static func encode(_ bitmap: Bitmap, withAlpha: Bool? = nil) throws(ImageError) -> [UInt8] {
        let source = bitmap.alphaMode == .straight ? bitmap : bitmap.straightened()
        let opaque = !(withAlpha ?? !source.isOpaque)
        var pixels = source.pixels
        var stride = source.bytesPerRow
        if opaque {
            pixels = rgb(from: source)
            stride = source.width * 3
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(source.width)
        image.height = UInt32(source.height)
        image.format = opaque ? CPNG_FORMAT_RGB : CPNG_FORMAT_RGBA
        var size: png_alloc_size_t = 0
        let rowStride = Int32(stride)
        // First call measures, second writes.
        guard pixels.withUnsafeBufferPointer({ png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, rowStride, nil) }) != 0 else {
            throw .codec(.png, message(of: image))
        }
        var out = [UInt8](repeating: 0, count: Int(size))
        let ok = out.withUnsafeMutableBufferPointer { buffer in
            pixels.withUnsafeBufferPointer { png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, $0.baseAddress, rowStride, nil) }
        }
        guard ok != 0 else { throw .codec(.png, message(of: image)) }
        png_image_free(&image)
        return Array(out.prefix(Int(size)))
    }

    private static func rgb(from bitmap: Bitmap) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 3)
        bitmap.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var o = 0
                for y in 0..<bitmap.height {
                    var i = y * bitmap.bytesPerRow
                    for _ in 0..<bitmap.width {
                        dst[o] = src[i]; dst[o + 1] = src[i + 1]; dst[o + 2] = src[i + 2]
                        o += 3
                        i += 4
                    }
                }
            }
        }
        return out
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

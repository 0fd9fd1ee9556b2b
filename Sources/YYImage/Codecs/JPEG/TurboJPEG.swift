internal import CTurboJPEG
internal import CYYPixelKernels

/// libjpeg-turbo through its TurboJPEG API, which returns error codes instead of longjmp.
enum TurboJPEG {
    /// Width, height and whether the samples are CMYK (or YCCK) from the frame header; `nil` when
    /// the header has not fully arrived.
    static func header(_ bytes: [UInt8]) -> (width: Int, height: Int, isCMYK: Bool)? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0 else { return nil }
        return (Int(width), Int(height), colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue))
    }

    /// The smallest size libjpeg decodes to directly at a power-of-two scale (1, 1/2, 1/4, 1/8)
    /// whose longest side is still at least `side` (``ShrinkOnLoad``).
    static func scaledSize(width: Int, height: Int, keeping side: Int?) -> (width: Int, height: Int) {
        let denominator = ShrinkOnLoad.denominator(width: width, height: height, keeping: side, maxDenominator: 8)
        return (ShrinkOnLoad.scaled(width, by: denominator), ShrinkOnLoad.scaled(height, by: denominator))
    }

    /// A progressive file of more than 500 scans is refused: each scan passes over the whole
    /// image again, so thousands of tiny ones cost minutes for a few kilobytes of input.
    private static let decodeFlags = Int32(TJFLAG_LIMITSCANS)

    /// Decodes to straight RGBA8 (alpha 255), scaled to `size`, which must be one of
    /// `scaledSize`'s answers. A stream that ends early decodes what arrived (libjpeg fills the
    /// rest with grey; a progressive file shows its coarser scans) unless `final` is set.
    static func decode(_ bytes: [UInt8], width: Int, height: Int, final: Bool) throws(ImageError) -> Bitmap {
        guard let handle = tjInitDecompress() else { throw .codec(.jpeg, "tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        func decompress(into output: UnsafeMutableBufferPointer<UInt8>, stride: Int) -> Int32 {
            bytes.withUnsafeBufferPointer { input in
                tjDecompress2(
                    handle, input.baseAddress, UInt(bytes.count), output.baseAddress,
                    Int32(width), Int32(stride), Int32(height), Int32(TJPF_RGBA.rawValue), decodeFlags)
            }
        }
        // libjpeg writes every output row, even from truncated data (the missing part decodes as
        // grey), or fails.
        let bitmap = try Bitmap(uninitializedWidth: width, height: height) { (output, stride) throws(ImageError) in
            guard decompress(into: output, stride: stride) != 0 else { return }
            let failure = ImageError.codec(.jpeg, String(cString: tjGetErrorStr2(handle)))
            // Warnings ("premature end of data", stray bytes) still leave a decoded image. But
            // TurboJPEG also reports a fatal error as a warning when a warning came before it,
            // and then rows are left unwritten: the decode runs again over zeros, where a row
            // never written keeps alpha 0, and is refused if one does.
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else { throw failure }
            output.update(repeating: 0)
            _ = decompress(into: output, stride: stride)
            // (JPEG sides fit in 16 bits, so the C scan's 32-bit sizes hold them.)
            guard yy_is_opaque(output.baseAddress, stride, Int32(width), Int32(height)) != 0 else { throw failure }
        }
        if final && !endsWithEOI(bytes) { throw .truncated(.jpeg) }
        return bitmap
    }

    /// Decodes a CMYK or YCCK file to ink values, 4 bytes a pixel (0 = no ink), at a size from
    /// `scaledSize`. `inverted` says the file stores 255 − ink, as Adobe's (marked by an APP14
    /// "Adobe" segment) do.
    static func decodeInks(_ bytes: [UInt8], width: Int, height: Int, inverted: Bool, final: Bool) throws(ImageError) -> [UInt8] {
        guard let handle = tjInitDecompress() else { throw .codec(.jpeg, "tjInitDecompress failed") }
        defer { tjDestroy(handle) }
        func decompress(filledWith fill: UInt8) -> (inks: [UInt8], status: Int32) {
            var inks = [UInt8](repeating: fill, count: width * height * 4)
            let status = inks.withUnsafeMutableBufferPointer { output in
                bytes.withUnsafeBufferPointer { input in
                    tjDecompress2(
                        handle, input.baseAddress, UInt(bytes.count), output.baseAddress,
                        Int32(width), Int32(width * 4), Int32(height), Int32(TJPF_CMYK.rawValue), decodeFlags)
                }
            }
            return (inks, status)
        }
        var (inks, status) = decompress(filledWith: 0)
        if status != 0 {
            let failure = ImageError.codec(.jpeg, String(cString: tjGetErrorStr2(handle)))
            // As in `decode`: a fatal error after a warning is reported as a warning, with rows
            // left unwritten. Ink bytes have no value a decode never writes, so the decode runs
            // again over 255s and is refused where the two differ.
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), decompress(filledWith: 255).inks == inks else { throw failure }
        }
        if final && !endsWithEOI(bytes) { throw .truncated(.jpeg) }
        if inverted { for i in inks.indices { inks[i] = 255 &- inks[i] } }
        return inks
    }

    /// Encodes RGBA8 (alpha ignored) at `quality` 1...100 with 4:2:0 chroma subsampling.
    static func encode(_ bitmap: Bitmap, quality: Int) throws(ImageError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .codec(.jpeg, "tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = bitmap.pixels.withUnsafeBufferPointer { input in
            tjCompress2(
                handle, input.baseAddress, Int32(bitmap.width), Int32(bitmap.bytesPerRow), Int32(bitmap.height),
                Int32(TJPF_RGBA.rawValue), &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { tjFree(output) }
        guard status == 0, let output else { throw .codec(.jpeg, String(cString: tjGetErrorStr2(handle))) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// Whether the stream ends with the EOI marker (allowing trailing padding bytes).
    private static func endsWithEOI(_ bytes: [UInt8]) -> Bool {
        var end = bytes.count
        while end > 2, bytes[end - 1] == 0 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D || bytes[end - 1] == 0x20 { end -= 1 }
        return end >= 2 && bytes[end - 2] == 0xFF && bytes[end - 1] == 0xD9
    }
}

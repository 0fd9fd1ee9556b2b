#if LibTIFF
internal import CTIFF

/// Writes bitmaps as the pages of a TIFF file with libtiff: 8-bit RGB, or RGBA with
/// unassociated alpha when a page has transparency; LZW or Deflate with the horizontal
/// predictor, strips of about 64 KiB.
enum TIFFWriter {
    /// The file holding `pages` in order.
    static func write(_ pages: [Bitmap], compression: ImageEncoder.TIFFCompression, alwaysWritesAlpha: Bool) throws(ImageError) -> [UInt8] {
        let stream = MemoryStream()
        do {
            let file = try LibTIFF(stream, mode: "w", maxAllocation: 1 << 30)
            for (number, page) in pages.enumerated() {
                try writePage(
                    page, number: number, of: pages.count, to: file, compression: compression,
                    withAlpha: alwaysWritesAlpha || !page.isOpaque)
            }
        }
        // The handle is closed (and its last directory flushed) when `file` goes out of scope.
        return stream.bytes
    }

    private static func writePage(
        _ page: Bitmap, number: Int, of count: Int, to file: LibTIFF,
        compression: ImageEncoder.TIFFCompression, withAlpha: Bool
    ) throws(ImageError) {
        let samples = withAlpha ? 4 : 3
        try file.setField(TIFFTAG_IMAGEWIDTH, UInt32(page.width))
        try file.setField(TIFFTAG_IMAGELENGTH, UInt32(page.height))
        try file.setField(TIFFTAG_BITSPERSAMPLE, Int32(8))
        try file.setField(TIFFTAG_SAMPLESPERPIXEL, Int32(samples))
        try file.setField(TIFFTAG_PHOTOMETRIC, Int32(PHOTOMETRIC_RGB))
        try file.setField(TIFFTAG_PLANARCONFIG, Int32(PLANARCONFIG_CONTIG))
        try file.setField(TIFFTAG_ORIENTATION, Int32(ORIENTATION_TOPLEFT))
        try file.setField(TIFFTAG_COMPRESSION, Int32(compression == .lzw ? COMPRESSION_LZW : COMPRESSION_ADOBE_DEFLATE))
        try file.setField(TIFFTAG_PREDICTOR, Int32(PREDICTOR_HORIZONTAL))
        if withAlpha {
            var extra = UInt16(EXTRASAMPLE_UNASSALPHA)
            try withUnsafeMutablePointer(to: &extra) { (pointer) throws(ImageError) in
                try file.setField(TIFFTAG_EXTRASAMPLES, Int32(1), pointer)
            }
        }
        if count > 1 {
            try file.setField(TIFFTAG_SUBFILETYPE, UInt32(FILETYPE_PAGE))
            try file.setField(TIFFTAG_PAGENUMBER, Int32(number), Int32(count))
        }
        let rowBytes = page.width * samples
        let rowsPerStrip = max(1, (64 << 10) / rowBytes)
        try file.setField(TIFFTAG_ROWSPERSTRIP, UInt32(rowsPerStrip))
        var strip = [UInt8](repeating: 0, count: rowBytes * rowsPerStrip)
        for (index, firstRow) in stride(from: 0, to: page.height, by: rowsPerStrip).enumerated() {
            let rows = min(rowsPerStrip, page.height - firstRow)
            page.pixels.withUnsafeBufferPointer { source in
                for row in 0..<rows {
                    let from = (firstRow + row) * page.bytesPerRow, to = row * rowBytes
                    if withAlpha {
                        for x in 0..<(page.width * 4) { strip[to + x] = source[from + x] }
                    } else {
                        for x in 0..<page.width {
                            strip[to + x * 3] = source[from + x * 4]
                            strip[to + x * 3 + 1] = source[from + x * 4 + 1]
                            strip[to + x * 3 + 2] = source[from + x * 4 + 2]
                        }
                    }
                }
            }
            let written = TIFFWriteEncodedStrip(file.tiff, UInt32(index), &strip, tmsize_t(rows * rowBytes))
            guard written >= 0 else { throw .codec(.tiff, file.error("strip \(index) of page \(number) was not written")) }
        }
        guard TIFFWriteDirectory(file.tiff) == 1 else { throw .codec(.tiff, file.error("page \(number) was not written")) }
    }
}
#endif

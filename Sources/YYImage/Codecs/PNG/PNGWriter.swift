internal import CDeflate

/// Writes 8-bit RGB or RGBA PNG: each row filtered with whichever of None, Sub, Up and Paeth gives
/// the smallest sum of absolute signed bytes (libpng's and Pillow's heuristic), the whole filtered
/// image compressed in one call of libdeflate, which is faster than zlib at a smaller size.
enum PNGWriter {
    /// The compression level when none is asked for (libdeflate's 1...12; 6 is zlib's default).
    static let defaultLevel = 6

    /// The PNG of `bitmap`: RGBA, or RGB when `withAlpha` is false (by default, when every pixel is
    /// opaque); with an iCCP chunk when `iccProfile` is given.
    /// The keyword of XMP's iTXt chunk, with its NUL.
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8) + [0]

    /// ... and with an eXIf chunk for `exif` and an iTXt chunk for `xmp` when given.
    static func encode(
        _ bitmap: Bitmap, withAlpha: Bool? = nil, level: Int = defaultLevel, iccProfile: [UInt8]? = nil,
        exif: [UInt8]? = nil, xmp: [UInt8]? = nil
    ) throws(ImageError) -> [UInt8] {
        let source = bitmap.converted(to: .straight)
        guard source.width > 0, source.height > 0, source.width <= Int(Int32.max), source.height <= Int(Int32.max) else {
            throw .invalidInput("a PNG of \(source.width)x\(source.height) pixels")
        }
        let alpha = withAlpha ?? !source.isOpaque
        let filtered = filter(source, channels: alpha ? 4 : 3)
        var out = PNGChunk.signature
        var header = [UInt8]()
        header.appendBE(UInt32(source.width))
        header.appendBE(UInt32(source.height))
        header += [8, alpha ? 6 : 2, 0, 0, 0]  // depth 8, RGBA or RGB, deflate, adaptive filters, no interlace
        PNGChunk.append(type: "IHDR", data: header[...], to: &out)
        if let iccProfile {
            var chunk = Array("ICC Profile".utf8) + [0, 0]
            chunk += try zlib(iccProfile, level: 9)
            PNGChunk.append(type: "iCCP", data: chunk[...], to: &out)
        }
        if let exif { PNGChunk.append(type: "eXIf", data: exif[...], to: &out) }
        if let xmp {
            let chunk = xmpKeyword + [0, 0, 0, 0] + xmp  // uncompressed, no language, no translation
            PNGChunk.append(type: "iTXt", data: chunk[...], to: &out)
        }
        let compressed = try zlib(filtered, level: level)
        // IDAT chunks of at most 1 MiB, as encoders conventionally split them.
        var offset = 0
        repeat {
            let end = min(compressed.count, offset + (1 << 20))
            PNGChunk.append(type: "IDAT", data: compressed[offset..<end], to: &out)
            offset = end
        } while offset < compressed.count
        PNGChunk.append(type: "IEND", data: [][...], to: &out)
        return out
    }

    /// A zlib stream of `bytes` at libdeflate `level` (clamped to 0...12).
    static func zlib(_ bytes: [UInt8], level: Int) throws(ImageError) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(Int32(min(12, max(0, level)))) else {
            throw .codec(.png, "libdeflate could not allocate a compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let written = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard written > 0 else { throw .codec(.png, "libdeflate could not compress \(bytes.count) bytes") }
        out.removeSubrange(written...)
        return out
    }

    /// The bytes of a zlib stream, `nil` when it is damaged or inflates past `limit` bytes.
    static func inflate(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var capacity = max(1024, bytes.count * 4)
        while true {
            var out = [UInt8](repeating: 0, count: min(capacity, limit))
            var written = 0
            let status = bytes.withUnsafeBytes { input in
                out.withUnsafeMutableBytes { output in
                    libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &written)
                }
            }
            if status == LIBDEFLATE_SUCCESS {
                out.removeSubrange(written...)
                return out
            }
            guard status == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < limit else { return nil }
            capacity *= 4
        }
    }

    /// Every row as its filter-type byte and filtered samples, `channels` bytes a pixel.
    private static func filter(_ bitmap: Bitmap, channels: Int) -> [UInt8] {
        let (width, height, stride) = (bitmap.width, bitmap.height, bitmap.bytesPerRow)
        let rowBytes = width * channels
        var out = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            out.withUnsafeMutableBufferPointer { out in
                // The current and previous rows, packed to `channels` bytes a pixel; candidates after.
                var scratch = [UInt8](repeating: 0, count: rowBytes * 6)
                scratch.withUnsafeMutableBufferPointer { scratch in
                    let base = scratch.baseAddress!
                    var current = base, previous = base + rowBytes
                    let candidates = (0..<4).map { base + rowBytes * (2 + $0) }
                    for y in 0..<height {
                        let row = pixels.baseAddress! + y * stride
                        if channels == 4 {
                            current.update(from: row, count: rowBytes)
                        } else {
                            for x in 0..<width {
                                current[x * 3] = row[x * 4]
                                current[x * 3 + 1] = row[x * 4 + 1]
                                current[x * 3 + 2] = row[x * 4 + 2]
                            }
                        }
                        let best = bestFilter(
                            current, previous: y == 0 ? nil : previous, count: rowBytes,
                            bytesPerPixel: channels, candidates: candidates)
                        let target = out.baseAddress! + y * (rowBytes + 1)
                        target[0] = [0, 1, 2, 4][best]  // None, Sub, Up, Paeth
                        (target + 1).update(from: best == 0 ? UnsafePointer(current) : UnsafePointer(candidates[best]), count: rowBytes)
                        swap(&current, &previous)
                    }
                }
            }
        }
        return out
    }

    /// Writes Sub, Up and Paeth into `candidates[1...3]` and returns the filter (0 = None) whose
    /// bytes, read as signed, have the smallest sum of magnitudes.
    private static func bestFilter(
        _ row: UnsafeMutablePointer<UInt8>, previous: UnsafeMutablePointer<UInt8>?, count: Int,
        bytesPerPixel bpp: Int, candidates: [UnsafeMutablePointer<UInt8>]
    ) -> Int {
        @inline(__always) func cost(_ byte: UInt8) -> Int { let v = Int(Int8(bitPattern: byte)); return v < 0 ? -v : v }
        var (none, subSum, upSum, paethSum) = (0, 0, 0, 0)
        let (sub, up, paeth) = (candidates[1], candidates[2], candidates[3])
        for i in 0..<count {
            let x = row[i]
            let a: UInt8 = i >= bpp ? row[i - bpp] : 0
            let b: UInt8 = previous?[i] ?? 0
            let c: UInt8 = i >= bpp ? (previous?[i - bpp] ?? 0) : 0
            let p = Int(a) + Int(b) - Int(c)
            let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
            let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            sub[i] = x &- a
            up[i] = x &- b
            paeth[i] = x &- predictor
            none += cost(x)
            subSum += cost(sub[i])
            upSum += cost(up[i])
            paethSum += cost(paeth[i])
        }
        let sums = [none, subSum, upSum, paethSum]
        var best = 0
        for filter in 1..<4 where sums[filter] < sums[best] { best = filter }
        return best
    }
}

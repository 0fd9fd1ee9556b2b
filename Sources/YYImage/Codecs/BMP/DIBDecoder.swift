/// Device-independent bitmaps: the pixel data of BMP files and of ICO entries.
///
/// Reads BITMAPCOREHEADER (12 bytes) and BITMAPINFOHEADER and its V2–V5 extensions; 1, 4, 8,
/// 16, 24 and 32 bits per pixel; BI_RGB, BI_BITFIELDS and BI_ALPHABITFIELDS; bottom-up and
/// top-down rows. 32-bit BI_RGB pixels are opaque (the fourth byte is padding, as Windows
/// treats it) unless the header gives an alpha mask. RLE compression is not supported.
struct DIBDecoder {
    let width: Int
    let height: Int
    private let topDown: Bool
    /// Bits per stored pixel.
    let bitCount: Int
    private let masks: (r: UInt32, g: UInt32, b: UInt32, a: UInt32)
    private let palette: [RGBA]
    private let headerEnd: Int

    /// Reads the header at `offset`. `isIcon` halves the stored height (ICO entries store image
    /// plus mask rows) and reads the fourth byte of 32-bit pixels as alpha.
    init(_ bytes: [UInt8], at offset: Int, type: ImageType, isIcon: Bool = false, limits: DecodeLimits) throws(ImageError) {
        guard let headerSize = bytes.u32LE(offset).map(Int.init) else { throw .truncated(type) }
        var width: Int, height: Int, bitCount: Int, compression: UInt32 = 0, colorsUsed = 0
        var masks: (r: UInt32, g: UInt32, b: UInt32, a: UInt32) = (0, 0, 0, 0)
        let paletteEntrySize: Int
        if headerSize == 12 {
            guard let w = bytes.u16LE(offset + 4), let h = bytes.u16LE(offset + 6), let bits = bytes.u16LE(offset + 10) else {
                throw .truncated(type)
            }
            (width, height, bitCount) = (Int(w), Int(h), Int(bits))
            paletteEntrySize = 3
        } else if headerSize >= 40 && headerSize <= 256 {
            guard let w = bytes.u32LE(offset + 4), let h = bytes.u32LE(offset + 8), let bits = bytes.u16LE(offset + 14),
                let c = bytes.u32LE(offset + 16), let used = bytes.u32LE(offset + 32)
            else { throw .truncated(type) }
            width = Int(Int32(bitPattern: w))
            height = Int(Int32(bitPattern: h))
            bitCount = Int(bits)
            compression = c
            colorsUsed = Int(used)
            paletteEntrySize = 4
            if compression == 3 || compression == 6 {
                // Masks follow a 40-byte header, or sit inside a V2+ header.
                let maskOffset = offset + 40
                guard let r = bytes.u32LE(maskOffset), let g = bytes.u32LE(maskOffset + 4), let b = bytes.u32LE(maskOffset + 8) else {
                    throw .truncated(type)
                }
                let hasAlphaMask = compression == 6 || headerSize >= 56
                masks = (r, g, b, hasAlphaMask ? (bytes.u32LE(maskOffset + 12) ?? 0) : 0)
            }
        } else {
            throw .malformed(type, "unknown DIB header size \(headerSize)")
        }
        guard width > 0, height != 0, height != Int(Int32.min) else { throw .malformed(type, "size \(width)x\(height)") }
        self.topDown = height < 0
        height = abs(height)
        if isIcon { height /= 2 }
        try limits.check(width: width, height: height)
        guard [1, 4, 8, 16, 24, 32].contains(bitCount) else { throw .unsupportedFeature(type, "\(bitCount) bits per pixel") }
        switch compression {
        case 0:
            if bitCount == 16 { masks = (0x7C00, 0x03E0, 0x001F, 0) }
            if bitCount == 32 { masks = (0x00FF_0000, 0x0000_FF00, 0x0000_00FF, isIcon ? 0xFF00_0000 : 0) }
        case 3, 6:
            guard bitCount == 16 || bitCount == 32 else { throw .malformed(type, "bit fields with \(bitCount) bits per pixel") }
        default:
            throw .unsupportedFeature(type, "compression \(compression) (RLE)")
        }
        var headerEnd = offset + headerSize
        if headerSize == 40 && (compression == 3 || compression == 6) { headerEnd += compression == 6 ? 16 : 12 }
        var palette: [RGBA] = []
        if bitCount <= 8 {
            let entries = colorsUsed > 0 ? min(colorsUsed, 1 << bitCount) : 1 << bitCount
            for i in 0..<entries {
                let p = headerEnd + i * paletteEntrySize
                guard p + 3 <= bytes.count else { break }
                palette.append(RGBA(bytes[p + 2], bytes[p + 1], bytes[p]))
            }
            headerEnd += entries * paletteEntrySize
        }
        self.width = width
        self.height = height
        self.bitCount = bitCount
        self.masks = masks
        self.palette = palette
        self.headerEnd = headerEnd
    }

    /// Bytes in one stored row (rows are padded to 4 bytes).
    var rowBytes: Int { (width * bitCount + 31) / 32 * 4 }

    /// Where the pixel rows start when they follow the header and palette directly (ICO).
    var pixelsOffsetAfterHeader: Int { headerEnd }

    /// Whether the header gives an alpha channel.
    var hasAlphaMask: Bool { masks.a != 0 }

    /// Decodes the rows at `pixelOffset`. Rows the data does not reach stay transparent.
    func decode(_ bytes: [UInt8], pixelOffset: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        let rowBytes = self.rowBytes
        let shifts = (Self.shift(masks.r), Self.shift(masks.g), Self.shift(masks.b), Self.shift(masks.a))
        bitmap.pixels.withUnsafeMutableBufferPointer { out in
            for storedRow in 0..<height {
                let start = pixelOffset + storedRow * rowBytes
                guard start >= 0, start + rowBytes <= bytes.count else { break }
                let y = topDown ? storedRow : height - 1 - storedRow
                var o = y * width * 4
                for x in 0..<width {
                    let color: RGBA
                    switch bitCount {
                    case 1, 4, 8:
                        let bitOffset = x * bitCount
                        let byte = bytes[start + bitOffset / 8]
                        let index = Int(byte >> UInt8(8 - bitCount - bitOffset % 8)) & ((1 << bitCount) - 1)
                        color = index < palette.count ? palette[index] : RGBA(0, 0, 0)
                    case 24:
                        let p = start + x * 3
                        color = RGBA(bytes[p + 2], bytes[p + 1], bytes[p])
                    default:
                        let p = start + x * bitCount / 8
                        let value =
                            bitCount == 16
                            ? UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8
                            : UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | UInt32(bytes[p + 3]) << 24
                        color = RGBA(
                            Self.channel(value, masks.r, shifts.0), Self.channel(value, masks.g, shifts.1),
                            Self.channel(value, masks.b, shifts.2), masks.a == 0 ? 255 : Self.channel(value, masks.a, shifts.3))
                    }
                    out[o] = color.r; out[o + 1] = color.g; out[o + 2] = color.b; out[o + 3] = color.a
                    o += 4
                }
            }
        }
        return bitmap
    }

    /// The lowest set bit of a mask.
    private static func shift(_ mask: UInt32) -> UInt32 { mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount) }

    /// A masked channel scaled to 0...255.
    private static func channel(_ value: UInt32, _ mask: UInt32, _ shift: UInt32) -> UInt8 {
        guard mask != 0 else { return 0 }
        let maximum = mask >> shift
        let raw = (value & mask) >> shift
        return maximum == 255 ? UInt8(raw) : UInt8((UInt64(raw) * 255 + UInt64(maximum) / 2) / UInt64(maximum))
    }
}

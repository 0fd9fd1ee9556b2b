/// Writes 32-bit BMP (BITMAPV4HEADER with bit-field masks, so alpha survives) and ICO files
/// whose entries are PNG streams (Windows Vista and later).
enum BMPWriter {
    /// A bottom-up 32-bit BGRA bitmap.
    static func bmp(_ bitmap: Bitmap) -> [UInt8] {
        let image = bitmap.converted(to: .straight)
        let headerSize = 108
        let pixelOffset = 14 + headerSize
        let imageSize = image.width * image.height * 4
        var out = [UInt8]()
        out.reserveCapacity(pixelOffset + imageSize)
        out.append(contentsOf: Array("BM".utf8))
        out.appendLE(UInt32(pixelOffset + imageSize))
        out.appendLE(UInt32(0))
        out.appendLE(UInt32(pixelOffset))
        out.appendLE(UInt32(headerSize))
        out.appendLE(UInt32(image.width))
        out.appendLE(UInt32(image.height))  // positive: bottom-up, the form every reader knows
        out.appendLE(UInt16(1))
        out.appendLE(UInt16(32))
        out.appendLE(UInt32(3))  // BI_BITFIELDS
        out.appendLE(UInt32(imageSize))
        out.appendLE(UInt32(2835)); out.appendLE(UInt32(2835))  // 72 dpi
        out.appendLE(UInt32(0)); out.appendLE(UInt32(0))
        for mask: UInt32 in [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] { out.appendLE(mask) }
        out.append(contentsOf: Array("BGRs".utf8))  // LCS_sRGB (0x73524742) little-endian
        out.append(contentsOf: [UInt8](repeating: 0, count: 48))  // endpoints and gamma: unused for sRGB
        for y in stride(from: image.height - 1, through: 0, by: -1) {
            var i = y * image.bytesPerRow
            for _ in 0..<image.width {
                out.append(contentsOf: [image.pixels[i + 2], image.pixels[i + 1], image.pixels[i], image.pixels[i + 3]])
                i += 4
            }
        }
        return out
    }

    /// An icon with one PNG entry per image (each at most 256 pixels a side).
    static func ico(_ images: [Bitmap]) throws(ImageError) -> [UInt8] {
        guard !images.isEmpty else { throw .invalidInput("no images") }
        var out = [UInt8]()
        out.appendLE(UInt16(0)); out.appendLE(UInt16(1)); out.appendLE(UInt16(images.count))
        var payloads: [[UInt8]] = []
        var offset = 6 + 16 * images.count
        for image in images {
            guard image.width > 0, image.height > 0, image.width <= 256, image.height <= 256 else {
                throw .invalidInput("ICO entries are 1...256 pixels a side, not \(image.width)x\(image.height)")
            }
            let png = try PNGWriter.encode(image, withAlpha: true)
            out.append(UInt8(image.width & 0xFF)); out.append(UInt8(image.height & 0xFF))  // 256 is stored as 0
            out.append(contentsOf: [0, 0])
            out.appendLE(UInt16(1)); out.appendLE(UInt16(32))
            out.appendLE(UInt32(png.count)); out.appendLE(UInt32(offset))
            offset += png.count
            payloads.append(png)
        }
        for payload in payloads { out.append(contentsOf: payload) }
        return out
    }
}

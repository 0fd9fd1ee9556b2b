/// Small TIFF files written byte by byte, for what Pillow cannot write and for hostile input.
enum HandmadeTIFF {
    /// A little-endian TIFF with one IFD of `entries` (tag, type, count, value or offset) at
    /// byte 8, `data` after it, and `nextIFD` as the following IFD's offset.
    static func file(entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)], data: [UInt8] = [], nextIFD: UInt32 = 0) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        u16(UInt16(entries.count))
        for entry in entries.sorted(by: { $0.tag < $1.tag }) {
            u16(entry.tag)
            u16(entry.type)
            u32(entry.count)
            u32(entry.value)
        }
        u32(nextIFD)
        return bytes + data
    }

    /// Where `data` starts in a file of `entryCount` entries.
    static func dataOffset(entryCount: Int) -> UInt32 { UInt32(8 + 2 + entryCount * 12 + 4) }

    /// A `width` × `height` 4-bit palette image whose pixel x, y has index (x + y) % 16, with a
    /// colour map whose index 1 is pure red.
    static func fourBitPalette(width: Int, height: Int) -> [UInt8] {
        let rowBytes = (width + 1) / 2
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let index = UInt8((x + y) % 16)
                pixels[y * rowBytes + x / 2] |= x % 2 == 0 ? index << 4 : index
            }
        }
        var colourMap = [UInt8]()
        for channel in 0..<3 {
            for index in 0..<16 {
                let value: UInt16 = index == 1 ? (channel == 0 ? 0xFFFF : 0) : UInt16(index * 4369 / (channel + 1))
                colourMap += [UInt8(value & 0xFF), UInt8(value >> 8)]
            }
        }
        let entryCount = 9
        let mapOffset = dataOffset(entryCount: entryCount), pixelOffset = mapOffset + UInt32(colourMap.count)
        return file(
            entries: [
                (256, 3, 1, UInt32(width)), (257, 3, 1, UInt32(height)), (258, 3, 1, 4), (259, 3, 1, 1),
                (262, 3, 1, 3), (273, 4, 1, pixelOffset), (278, 3, 1, UInt32(height)), (279, 4, 1, UInt32(pixels.count)),
                (320, 3, 48, mapOffset),
            ], data: colourMap + pixels)
    }
}

/// An ICO (or CUR) file: a directory of icons, each a PNG stream or a DIB with an AND mask.
///
/// Every entry is a frame of its own size, not drawn onto a canvas (like YYImage); the canvas
/// size is that of the largest entry (by pixel count). 32-bit DIB entries carry alpha (the AND mask is used only when every
/// alpha byte is 0); other depths take transparency from the AND mask.
struct ICOContainer: ImageContainer {
    let type = ImageType.ico
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    let compositesFrames = false
    private let entries: [Range<Int>]
    private let bytes: [UInt8]
    private let limits: DecodeLimits

    /// Parses `bytes` (`nil` when the directory has not arrived yet; entries are read only once
    /// the data is final).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard bytes.count >= 6, let count = bytes.u16LE(4).map(Int.init), bytes.count >= 6 + count * 16 else {
            if isFinal { throw .truncated(.ico) }
            return nil
        }
        guard isFinal else { return nil }
        guard count > 0 else { throw .malformed(.ico, "no entries") }
        var frames: [ImageFrameInfo] = []
        var entries: [Range<Int>] = []
        for index in 0..<count {
            let e = 6 + index * 16
            let size = Int(bytes.u32LE(e + 8)!), offset = Int(bytes.u32LE(e + 12)!)
            guard offset + size <= bytes.count, size > 0 else { continue }  // entries past the end are skipped
            // The directory's size byte says 0 for 256; the image data is authoritative.
            let data = Array(bytes[offset..<(offset + size)])
            let dimensions: (Int, Int)
            // A PNG side of 0 is no image (and 0 pixels would pass any pixel limit, however many
            // rows the other side claims): such an entry is unreadable, like a damaged one.
            if data.starts(with: PNGChunk.signature), let w = data.u32BE(16), let h = data.u32BE(20), w > 0, h > 0 {
                dimensions = (Int(w), Int(h))
            } else if let dib = try? DIBDecoder(data, at: 0, type: .ico, isIcon: true, limits: limits) {
                dimensions = (dib.width, dib.height)
            } else {
                continue
            }
            try limits.check(width: dimensions.0, height: dimensions.1)
            frames.append(ImageFrameInfo(width: dimensions.0, height: dimensions.1))
            entries.append(offset..<(offset + size))
        }
        guard !frames.isEmpty else { throw .malformed(.ico, "no readable entry") }
        let largest = frames.max { $0.width * $0.height < $1.width * $1.height }!
        canvasWidth = largest.width
        canvasHeight = largest.height
        self.frames = frames
        self.entries = entries
        self.bytes = bytes
        self.limits = limits
    }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        let data = Array(bytes[entries[index]])
        if data.starts(with: PNGChunk.signature) {
            let frame = frames[index]
            return try LibPNG.decode(data[...], width: frame.width, height: frame.height, final: true)
        }
        let dib = try DIBDecoder(data, at: 0, type: .ico, isIcon: true, limits: limits)
        var bitmap = dib.decode(data, pixelOffset: dib.pixelsOffsetAfterHeader)
        // The AND mask follows the colour rows: 1 bit per pixel, rows padded to 4 bytes.
        let maskOffset = dib.pixelsOffsetAfterHeader + dib.rowBytes * dib.height
        let maskRowBytes = (dib.width + 31) / 32 * 4
        let alphaIsEmpty = !stride(from: 3, to: bitmap.pixels.count, by: 4).contains { bitmap.pixels[$0] != 0 }
        let useMask = dib.bitCount != 32 || alphaIsEmpty
        guard useMask else { return bitmap }
        for row in 0..<dib.height {
            let start = maskOffset + row * maskRowBytes
            let y = dib.height - 1 - row
            for x in 0..<dib.width {
                let transparent = start + x / 8 < data.count ? (data[start + x / 8] >> (7 - UInt8(x % 8))) & 1 == 1 : false
                bitmap[x, y].a = transparent ? 0 : 255
            }
        }
        return bitmap
    }
}

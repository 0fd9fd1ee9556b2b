/// Writes GIF89a files: one local palette per frame, a Graphic Control Extension per frame,
/// and a NETSCAPE2.0 loop extension when the animation does not play exactly once.
enum GIFWriter {
    /// One frame, already reduced to palette indices.
    struct Frame {
        /// Rectangle, duration (rounded to centiseconds) and disposal; blend is always "over".
        var info: ImageFrameInfo
        /// Up to 256 entries.
        var palette: [RGBA]
        /// `info.width * info.height` indices, row by row.
        var indices: [UInt8]
        var transparentIndex: Int?
        /// Whether rows are stored in GIF's four-pass interlaced order.
        var interlaced = false
        /// The LZW minimum code size; by default the palette's bit count (at least 2).
        var minimumCodeSize: Int?
    }

    /// A GIF of `frames` on a `width` x `height` screen, played `plays` times (0 = forever; the
    /// file stores repeats, plays - 1). `globalPalette`, when given, is written as the global
    /// colour table; frames with an empty palette have no local table.
    static func write(width: Int, height: Int, frames: [Frame], plays: Int, globalPalette: [RGBA]? = nil) throws(ImageError) -> [UInt8] {
        guard !frames.isEmpty else { throw .invalidInput("no frames") }
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw .invalidInput("GIF screens are 1...65535 pixels a side, not \(width)x\(height)")
        }
        var out = Array("GIF89a".utf8)
        out.appendLE(UInt16(width))
        out.appendLE(UInt16(height))
        if let globalPalette {
            let bits = tableBits(globalPalette.count)
            out.append(0x80 | UInt8(bits - 1) << 4 | UInt8(bits - 1))
            out.append(contentsOf: [0, 0])
            appendPalette(globalPalette, bits: bits, to: &out)
        } else {
            out.append(contentsOf: [0, 0, 0])
        }
        if plays != 1 {
            out.append(contentsOf: [0x21, 0xFF, 11])
            out.append(contentsOf: Array("NETSCAPE2.0".utf8))
            out.append(contentsOf: [3, 1])
            out.appendLE(UInt16(min(65535, max(0, plays - 1))))
            out.append(0)
        }
        for frame in frames {
            let info = frame.info
            guard info.x >= 0, info.y >= 0, info.width <= 65535, info.height <= 65535, info.x <= 65535, info.y <= 65535,
                frame.indices.count == info.width * info.height, frame.palette.count <= 256
            else { throw .invalidInput("a GIF frame's rectangle, indices or palette is out of range") }
            // Graphic Control Extension.
            let disposal: UInt8 =
                switch info.disposal {
                case .none: 1;
                case .background: 2;
                case .previous: 3
                }
            out.append(contentsOf: [0x21, 0xF9, 4, disposal << 2 | (frame.transparentIndex == nil ? 0 : 1)])
            out.appendLE(UInt16(min(65535, max(0, (info.duration * 100).rounded()))))
            out.append(UInt8(frame.transparentIndex ?? 0))
            out.append(0)
            // Image descriptor and local colour table.
            out.append(0x2C)
            out.appendLE(UInt16(info.x)); out.appendLE(UInt16(info.y))
            out.appendLE(UInt16(info.width)); out.appendLE(UInt16(info.height))
            // An empty palette writes no local table: the frame uses the global one, if any.
            let hasLocalTable = !frame.palette.isEmpty
            let bits = tableBits(hasLocalTable ? frame.palette.count : globalPalette?.count ?? 2)
            out.append((hasLocalTable ? 0x80 | UInt8(bits - 1) : 0) | (frame.interlaced ? 0x40 : 0))
            if hasLocalTable { appendPalette(frame.palette, bits: bits, to: &out) }
            // Image data: LZW codes in sub-blocks of at most 255 bytes.
            let minimumCodeSize = frame.minimumCodeSize ?? max(2, bits)
            out.append(UInt8(minimumCodeSize))
            let indices = frame.interlaced ? interlace(frame.indices, width: info.width, height: info.height) : frame.indices
            let codes = LZWEncoder.encode(indices, minimumCodeSize: minimumCodeSize)
            var start = 0
            while start < codes.count {
                let end = min(start + 255, codes.count)
                out.append(UInt8(end - start))
                out.append(contentsOf: codes[start..<end])
                start = end
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }

    /// Bits of a colour table holding `count` entries (1...8; tables have 2^bits entries).
    private static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while 1 << bits < count { bits += 1 }
        return bits
    }

    private static func appendPalette(_ palette: [RGBA], bits: Int, to out: inout [UInt8]) {
        for i in 0..<(1 << bits) {
            let color = i < palette.count ? palette[i] : RGBA(0, 0, 0)
            out.append(contentsOf: [color.r, color.g, color.b])
        }
    }

    /// Rows reordered into the four interlace passes.
    private static func interlace(_ indices: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(indices.count)
        for fileRow in 0..<height {
            let row = GIFContainer.interlacedRow(fileRow, height: height)
            out.append(contentsOf: indices[(row * width)..<(row * width + width)])
        }
        return out
    }
}

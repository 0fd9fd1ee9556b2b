package import YYImage

/// Draws frames as sixel images: a palette of at most 256 colours per frame (exact when the frame
/// has that few, else median cut), transparent pixels left untouched (`P2 = 1`), runs of one
/// sixel written with `!` repeats.
package struct SixelRenderer: TerminalImageRenderer {
    /// A renderer.
    package init() {}

    package mutating func draw(_ frame: Bitmap, columns: Int, rows: Int) -> [UInt8] {
        Escape.beginSynchronizedUpdate + Escape.restoreCursor + Self.encode(frame) + Escape.endSynchronizedUpdate
    }

    package mutating func reset() {}

    /// The sixel image of `bitmap`: DCS `P0;1;0q`, raster attributes, colour registers, bands of
    /// six pixel rows, ST.
    package static func encode(_ bitmap: Bitmap) -> [UInt8] {
        let quantized = ColorQuantizer(bitmap, dithering: false)
        let (width, height) = (bitmap.width, bitmap.height)
        var out = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        for (index, color) in quantized.palette.enumerated() where index != quantized.transparentIndex {
            func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }
            out += Array("#\(index);2;\(percent(color.r));\(percent(color.g));\(percent(color.b))".utf8)
        }
        var sixels = [UInt8](repeating: 0, count: width)
        for bandTop in stride(from: 0, to: height, by: 6) {
            let bandRows = bandTop..<min(bandTop + 6, height)
            // The colours in this band, in palette order.
            var present = [Bool](repeating: false, count: 256)
            for y in bandRows { for x in 0..<width { present[Int(quantized.indices[y * width + x])] = true } }
            var first = true
            for color in 0..<256 where present[color] && color != quantized.transparentIndex {
                for x in 0..<width {
                    var bits: UInt8 = 0
                    for y in bandRows where quantized.indices[y * width + x] == color { bits |= 1 << (y - bandTop) }
                    sixels[x] = 63 + bits
                }
                if !first { out.append(UInt8(ascii: "$")) }  // back to the band's start
                first = false
                out += Array("#\(color)".utf8)
                appendRuns(sixels, to: &out)
            }
            out.append(UInt8(ascii: "-"))  // next band
        }
        out += Array("\u{1B}\\".utf8)
        return out
    }

    /// Sixel characters with runs of four or more written as `!<count><char>`.
    private static func appendRuns(_ sixels: [UInt8], to out: inout [UInt8]) {
        var x = 0
        while x < sixels.count {
            var end = x + 1
            while end < sixels.count && sixels[end] == sixels[x] { end += 1 }
            let count = end - x
            if count >= 4 {
                out += Array("!\(count)".utf8)
                out.append(sixels[x])
            } else {
                out += [UInt8](repeating: sixels[x], count: count)
            }
            x = end
        }
    }
}

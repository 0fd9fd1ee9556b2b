import Foundation
import TestSupport

@testable import YYImage

/// Small images made by the tests.
enum TestImages {
    /// A bitmap filled by `color(x, y)`.
    static func bitmap(_ width: Int, _ height: Int, _ color: (Int, Int) -> RGBA) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height { for x in 0..<width { bitmap[x, y] = color(x, y) } }
        return bitmap
    }

    /// One colour everywhere.
    static func solid(_ width: Int, _ height: Int, _ color: RGBA) -> Bitmap { bitmap(width, height) { _, _ in color } }

    /// Smooth colour ramps with noise: photo-like, thousands of colours.
    static func photo(_ width: Int, _ height: Int, seed: UInt64 = 1, alpha: Bool = false) -> Bitmap {
        var random = SplitMix64(seed: seed)
        return bitmap(width, height) { x, y in
            let noise = Int(random.next() % 9) - 4
            func clamp(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v))) }
            return RGBA(
                clamp(x * 255 / max(1, width - 1) + noise), clamp(y * 255 / max(1, height - 1) + noise),
                clamp((x + y) * 128 / max(1, width + height - 2) + 64 + noise),
                alpha ? clamp(255 - x * 200 / max(1, width - 1)) : 255)
        }
    }

    /// A GIF frame from a few palette colours: index `pattern(x, y)` per pixel.
    static func gifFrame(
        _ info: ImageFrameInfo, palette: [RGBA], transparent: Int? = nil, interlaced: Bool = false,
        pattern: (Int, Int) -> UInt8
    ) -> GIFWriter.Frame {
        var indices: [UInt8] = []
        for y in 0..<info.height { for x in 0..<info.width { indices.append(pattern(x, y)) } }
        return GIFWriter.Frame(info: info, palette: palette, indices: indices, transparentIndex: transparent, interlaced: interlaced)
    }

    /// Writes `bytes` to a fresh file and returns its path (kept alive by `folder`).
    static func file(_ bytes: [UInt8], name: String, in folder: TemporaryDirectory) throws -> String {
        let path = folder.appending(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}

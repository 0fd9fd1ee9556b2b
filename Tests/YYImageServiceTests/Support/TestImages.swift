import Foundation
import YYImage

/// Images the tests serve, made with our encoders.
enum TestImages {
    /// A `width` × `height` colour gradient (opaque).
    static func gradient(width: Int, height: Int, blue: UInt8 = 128) -> Bitmap {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(x * 255 / max(1, width - 1))
                pixels[i + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[i + 2] = blue
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }

    static func jpeg(width: Int = 640, height: Int = 480) -> [UInt8] {
        [UInt8](try! ImageEncoder.encode(gradient(width: width, height: height), as: .jpeg))
    }

    static func png(width: Int = 320, height: Int = 240) -> [UInt8] {
        [UInt8](try! ImageEncoder.encode(gradient(width: width, height: height), as: .png))
    }

    /// A 3-frame animated GIF of 60 × 40.
    static func animatedGIF() -> [UInt8] {
        var encoder = ImageEncoder(type: .gif)
        for blue: UInt8 in [0, 120, 240] {
            encoder.addFrame(gradient(width: 60, height: 40, blue: blue), duration: 0.1)
        }
        return [UInt8](try! encoder.encode())
    }

    /// PNG's CRC-32.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A PNG whose header claims `side` × `side` pixels, with no pixel data worth the name.
    static func pixelBomb(side: UInt32 = 100_000) -> [UInt8] {
        var png = png(width: 8, height: 8)
        // IHDR's width and height sit at bytes 16...23, its CRC (over type and data) at 29...32.
        withUnsafeBytes(of: side.bigEndian) { png.replaceSubrange(16..<20, with: $0) }
        withUnsafeBytes(of: side.bigEndian) { png.replaceSubrange(20..<24, with: $0) }
        withUnsafeBytes(of: crc32(png[12..<29]).bigEndian) { png.replaceSubrange(29..<33, with: $0) }
        return png
    }

    /// A GIF with a 1×1 logical screen and `frames` frames of `side` × `side` pixels, each with
    /// LZW data that ends at once: every frame is far larger than the canvas it draws on.
    static func frameBomb(frames: Int = 256, side: UInt16 = 7000) -> [UInt8] {
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        let size = [UInt8(side & 0xFF), UInt8(side >> 8)]
        for _ in 0..<frames {
            // Image descriptor at (0, 0), local palette of 2 colours, then LZW code size 2 and one
            // sub-block holding a clear code and the end code.
            gif += [0x2C, 0, 0, 0, 0] + size + size + [0x80, 0, 0, 0, 255, 255, 255]
            gif += [2, 1, 0x2C, 0]
        }
        return gif + [0x3B]
    }
}

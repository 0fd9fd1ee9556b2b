extension Bitmap {
    /// This bitmap with colour multiplied by alpha (a no-op when it already is).
    public func premultiplied() -> Bitmap {
        guard alphaMode == .straight else { return self }
        var copy = self
        copy.alphaMode = .premultiplied
        copy.mapPixels { r, g, b, a in
            guard a != 255 else { return }
            let alpha = UInt32(a)
            // Rounded division by 255: (x * a + 127) / 255.
            r = UInt8((UInt32(r) * alpha + 127) / 255)
            g = UInt8((UInt32(g) * alpha + 127) / 255)
            b = UInt8((UInt32(b) * alpha + 127) / 255)
        }
        return copy
    }

    /// This bitmap with colour divided by alpha again (a no-op when it already is straight).
    /// Colour under alpha 0 becomes 0; precision lost by premultiplying is not recovered.
    public func straightened() -> Bitmap {
        guard alphaMode == .premultiplied else { return self }
        var copy = self
        copy.alphaMode = .straight
        copy.mapPixels { r, g, b, a in
            guard a != 255 else { return }
            guard a != 0 else {
                r = 0; g = 0; b = 0
                return
            }
            let alpha = UInt32(a)
            r = UInt8(min(255, (UInt32(r) * 255 + alpha / 2) / alpha))
            g = UInt8(min(255, (UInt32(g) * 255 + alpha / 2) / alpha))
            b = UInt8(min(255, (UInt32(b) * 255 + alpha / 2) / alpha))
        }
        return copy
    }

    /// This bitmap in `mode`.
    public func converted(to mode: AlphaMode) -> Bitmap {
        mode == .premultiplied ? premultiplied() : straightened()
    }

    /// Calls `body` on every pixel's samples in place.
    @inline(__always)
    mutating func mapPixels(_ body: (inout UInt8, inout UInt8, inout UInt8, inout UInt8) -> Void) {
        let (width, height, stride) = (self.width, self.height, self.bytesPerRow)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                var i = y * stride
                for _ in 0..<width {
                    body(&buffer[i], &buffer[i + 1], &buffer[i + 2], &buffer[i + 3])
                    i += 4
                }
            }
        }
    }
}

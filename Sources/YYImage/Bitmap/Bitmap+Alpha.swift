extension Bitmap {
    /// This bitmap with colour multiplied by alpha (a no-op when it already is), rounded:
    /// c · a / 255. Large bitmaps are split across cores (the resampler's C kernel); a bitmap
    /// known to be opaque only changes its mode (c · 255 / 255 is c).
    public func premultiplied() -> Bitmap {
        guard alphaMode == .straight else { return self }
        guard width > 0, height > 0, !isKnownOpaque else {
            var copy = self
            copy.alphaMode = .premultiplied
            return copy
        }
        return Resampler.premultiplied(self, usesAllCores: true)
    }

    /// This bitmap with colour divided by alpha again (a no-op when it already is straight).
    /// Colour under alpha 0 becomes 0; precision lost by premultiplying is not recovered.
    public func straightened() -> Bitmap {
        guard alphaMode == .premultiplied else { return self }
        var copy = self
        if width > 0, height > 0, !isKnownOpaque { Resampler.unpremultiply(&copy, usesAllCores: true) }
        copy.alphaMode = .straight
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

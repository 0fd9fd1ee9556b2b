extension Bitmap {
    /// Blocks of `blockSize` × `blockSize` pixels, each one colour: the mean of the pixels it
    /// covers (blocks start at the top-left corner; those on the right and bottom edges are
    /// smaller when the sides are not multiples of `blockSize`). Translucent pixels are averaged
    /// premultiplied, so a transparent pixel's hidden colour does not bleed into its block.
    public func pixelated(blockSize: Int) throws(ImageError) -> Bitmap {
        guard blockSize >= 1 else {
            throw .invalidParameter(name: "pixelate", "a block of \(blockSize) pixels: give 1 or more")
        }
        guard blockSize > 1, width > 0, height > 0 else { return self }
        let opaque = isOpaque
        var out = opaque ? self : premultiplied()
        let stride = out.bytesPerRow
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            for top in Swift.stride(from: 0, to: height, by: blockSize) {
                let bottom = min(height, top + blockSize)
                for left in Swift.stride(from: 0, to: width, by: blockSize) {
                    let right = min(width, left + blockSize)
                    var (r, g, b, a): (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                    for y in top..<bottom {
                        var i = y * stride + left * 4
                        for _ in left..<right {
                            r += UInt64(buffer[i]); g += UInt64(buffer[i + 1]); b += UInt64(buffer[i + 2]); a += UInt64(buffer[i + 3])
                            i += 4
                        }
                    }
                    let count = UInt64((bottom - top) * (right - left))
                    // Each mean rounded to the nearest level.
                    let mean = (
                        UInt8((r + count / 2) / count), UInt8((g + count / 2) / count), UInt8((b + count / 2) / count),
                        UInt8((a + count / 2) / count)
                    )
                    for y in top..<bottom {
                        var i = y * stride + left * 4
                        for _ in left..<right {
                            buffer[i] = mean.0; buffer[i + 1] = mean.1; buffer[i + 2] = mean.2; buffer[i + 3] = mean.3
                            i += 4
                        }
                    }
                }
            }
        }
        return opaque ? out : out.converted(to: alphaMode)
    }
}

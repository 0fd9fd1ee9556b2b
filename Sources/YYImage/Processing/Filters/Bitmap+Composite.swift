extension Bitmap {
    /// This bitmap with `overlay` drawn over it (Porter-Duff "over", as Pillow's
    /// `alpha_composite`), the overlay's top-left corner at (`x`, `y`) and its alpha times
    /// `opacity` (0...1). With `tiled`, the overlay repeats edge to edge in both directions from
    /// there, over the whole bitmap. Parts outside the bitmap are clipped; the result keeps this
    /// bitmap's size and alpha mode.
    public func composited(with overlay: Bitmap, atX x: Int, y: Int, opacity: Double = 1, tiled: Bool = false) -> Bitmap {
        let opacity = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        guard opacity > 0, overlay.width > 0, overlay.height > 0, width > 0, height > 0 else { return self }
        // The overlay's alpha after the opacity, for every level, rounded.
        let alpha = (0...255).map { UInt8((Double($0) * opacity).rounded()) }
        let top = overlay.straightened()
        var result = straightened()
        func origins(_ start: Int, _ step: Int, _ extent: Int) -> StrideTo<Int> {
            guard tiled else { return Swift.stride(from: start, to: start + 1, by: 1) }
            // The first copy that reaches the bitmap's leading edge.
            var first = start % step
            if first > 0 { first -= step }
            return Swift.stride(from: first, to: extent, by: step)
        }
        for originY in origins(y, top.height, height) {
            for originX in origins(x, top.width, width) {
                result.blend(top, atX: originX, y: originY, alpha: alpha)
            }
        }
        return result.converted(to: alphaMode)
    }

    /// Blends straight-alpha `top` over this straight-alpha bitmap at (`x`, `y`), clipped, with
    /// each source alpha level mapped through `alpha`.
    private mutating func blend(_ top: Bitmap, atX x: Int, y: Int, alpha: [UInt8]) {
        let (firstColumn, endColumn) = (max(0, x), min(width, x + top.width))
        let (firstRow, endRow) = (max(0, y), min(height, y + top.height))
        guard firstColumn < endColumn, firstRow < endRow else { return }
        let (sourceStride, stride) = (top.bytesPerRow, bytesPerRow)
        top.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                for row in firstRow..<endRow {
                    var s = (row - y) * sourceStride + (firstColumn - x) * 4
                    var d = row * stride + firstColumn * 4
                    for _ in firstColumn..<endColumn {
                        Self.blendOver(source[s], source[s + 1], source[s + 2], alpha[Int(source[s + 3])], into: destination, at: d)
                        s += 4
                        d += 4
                    }
                }
            }
        }
    }

    /// Straight-alpha "over" of the colour (`r`, `g`, `b`, `a`) onto the pixel at `d`:
    /// out.a = a + d.a (1 - a); out.c = (c a + d.c d.a (1 - a)) / out.a, rounded.
    @inline(__always)
    static func blendOver(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8, into dst: UnsafeMutableBufferPointer<UInt8>, at d: Int) {
        if a == 255 {
            dst[d] = r; dst[d + 1] = g; dst[d + 2] = b; dst[d + 3] = 255
            return
        }
        if a == 0 { return }
        let sa = UInt32(a), da = UInt32(dst[d + 3])
        // Weights scaled by 255 * 255 to stay in integers.
        let sourceWeight = sa * 255
        let destinationWeight = da * (255 - sa)
        let total = sourceWeight + destinationWeight  // = 255 * out.a
        func mix(_ source: UInt8, _ destination: UInt8) -> UInt8 {
            UInt8((UInt32(source) * sourceWeight + UInt32(destination) * destinationWeight + total / 2) / total)
        }
        dst[d] = mix(r, dst[d]); dst[d + 1] = mix(g, dst[d + 1]); dst[d + 2] = mix(b, dst[d + 2])
        dst[d + 3] = UInt8((total + 127) / 255)
    }
}

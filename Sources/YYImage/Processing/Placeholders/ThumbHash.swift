import Foundation

/// ThumbHash (Evan Wallace's placeholder, https://evanw.github.io/thumbhash/): the picture's
/// luminance, two colour-difference channels and alpha as a few cosine components, in about 25
/// bytes; keeps the aspect ratio and transparency that BlurHash drops.
public enum ThumbHash {
    /// The hash of `bitmap`, which may be at most 100 pixels a side (shrink it first).
    public static func encode(_ bitmap: Bitmap) throws(ImageError) -> [UInt8] {
        let (w, h) = (bitmap.width, bitmap.height)
        guard w > 0, h > 0, w <= 100, h <= 100 else {
            throw .invalidParameter(name: "thumbhash", "a \(w)x\(h) picture: give 1...100 pixels a side")
        }
        let rgba = bitmap.converted(to: .straight).packedPixels
        let count = w * h
        // The average colour, weighted by alpha.
        var (averageR, averageG, averageB, averageA) = (0.0, 0.0, 0.0, 0.0)
        for i in 0..<count {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            averageR += alpha / 255 * Double(rgba[i * 4])
            averageG += alpha / 255 * Double(rgba[i * 4 + 1])
            averageB += alpha / 255 * Double(rgba[i * 4 + 2])
            averageA += alpha
        }
        if averageA > 0 {
            averageR /= averageA
            averageG /= averageA
            averageB /= averageA
        }
        let hasAlpha = averageA < Double(count)
        let limit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, round(limit * Double(w) / longest)), ly = max(1, round(limit * Double(h) / longest))
        // Luminance, yellow-blue, red-green and alpha, with transparent pixels over the average.
        var (l, p, q, a) = ([Double](), [Double](), [Double](), [Double]())
        for i in 0..<count {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let r = averageR * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
            let g = averageG * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
            let b = averageB * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
            l.append((r + g + b) / 3)
            p.append((r + g) / 2 - b)
            q.append(r - g)
            a.append(alpha)
        }
        let luminance = channel(l, w, h, max(3, lx), max(3, ly))
        let yellowBlue = channel(p, w, h, 3, 3), redGreen = channel(q, w, h, 3, 3)
        let transparency = hasAlpha ? channel(a, w, h, 5, 5) : nil
        let isLandscape = w > h
        let header24 =
            round(63 * luminance.dc) | round(31.5 + 31.5 * yellowBlue.dc) << 6 | round(31.5 + 31.5 * redGreen.dc) << 12
            | round(31 * luminance.scale) << 18 | (hasAlpha ? 1 : 0) << 23
        let header16 =
            (isLandscape ? ly : lx) | round(63 * yellowBlue.scale) << 3 | round(63 * redGreen.scale) << 9 | (isLandscape ? 1 : 0) << 15
        var hash = [header24 & 255, (header24 >> 8) & 255, header24 >> 16, header16 & 255, header16 >> 8].map { UInt8($0) }
        if let transparency { hash.append(UInt8(round(15 * transparency.dc) | round(15 * transparency.scale) << 4)) }
        let start = hash.count
        var index = 0
        for coefficients in [luminance.ac, yellowBlue.ac, redGreen.ac, transparency?.ac ?? []] {
            for f in coefficients {
                if start + index / 2 >= hash.count { hash.append(0) }
                hash[start + index / 2] |= UInt8(round(15 * f) << ((index & 1) << 2))
                index += 1
            }
        }
        return hash
    }

    /// One channel's components: its mean, the rest scaled into 0...1, and that scale. Only the
    /// components in the triangle `cx * ny < nx * (ny - cy)` are kept.
    private static func channel(_ values: [Double], _ w: Int, _ h: Int, _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
        var (dc, ac, scale) = (0.0, [Double](), 0.0)
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                let fx = (0..<w).map { cos(Double.pi / Double(w) * Double(cx) * (Double($0) + 0.5)) }
                var f = 0.0
                for y in 0..<h {
                    let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                    for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                }
                f /= Double(w * h)
                if cx > 0 || cy > 0 {
                    ac.append(f)
                    scale = max(scale, abs(f))
                } else {
                    dc = f
                }
                cx += 1
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// Rounds halves up, as the reference (JavaScript's `Math.round`) does.
    private static func round(_ value: Double) -> Int { Int((value + 0.5).rounded(.down)) }
}

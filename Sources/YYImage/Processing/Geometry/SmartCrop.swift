import Foundation

/// Chooses a crop window from the pixels, for ``Gravity/entropy`` and ``Gravity/attention``.
/// Both look at a copy shrunk to at most ``analysisSize`` pixels a side, where every window
/// position is cheap to score, and map the answer back.
enum SmartCrop {
    /// The longest side of the copy the windows are scored on.
    static let analysisSize = 256

    /// The top-left corner of the `width` × `height` window of `bitmap` that `gravity` prefers.
    static func origin(in bitmap: Bitmap, width: Int, height: Int, gravity: Gravity) -> (x: Int, y: Int) {
        guard width < bitmap.width || height < bitmap.height else { return (0, 0) }
        let factor = max(1, (max(bitmap.width, bitmap.height) + analysisSize - 1) / analysisSize)
        let small =
            factor > 1
            ? Resampler.boxShrink(
                bitmap.converted(to: .straight), factorX: factor, factorY: factor,
                options: ResizeOptions()) : bitmap.converted(to: .straight)
        let window = (w: max(1, min(small.width, width / factor)), h: max(1, min(small.height, height / factor)))
        let found = gravity == .entropy ? entropyOrigin(small, window: window) : attentionOrigin(small, window: window)
        return (min(bitmap.width - width, found.x * factor), min(bitmap.height - height, found.y * factor))
    }

    /// libvips' entropy crop: cut a strip from whichever end of the longer-than-wanted axis holds
    /// less luminance entropy, until the window fits.
    private static func entropyOrigin(_ image: Bitmap, window: (w: Int, h: Int)) -> (x: Int, y: Int) {
        let luma = luminance(image)
        var left = 0, right = image.width, top = 0, bottom = image.height
        func entropy(_ xs: Range<Int>, _ ys: Range<Int>) -> Double {
            var histogram = [Int](repeating: 0, count: 256)
            for y in ys { for x in xs { histogram[Int(luma[y * image.width + x])] += 1 } }
            let total = Double(xs.count * ys.count)
            return histogram.reduce(0) { sum, n in n == 0 ? sum : sum - Double(n) / total * log2(Double(n) / total) }
        }
        while right - left > window.w {
            let strip = max(1, min(right - left - window.w, (right - left) / 10))
            if entropy(left..<(left + strip), top..<bottom) < entropy((right - strip)..<right, top..<bottom) {
                left += strip
            } else {
                right -= strip
            }
        }
        while bottom - top > window.h {
            let strip = max(1, min(bottom - top - window.h, (bottom - top) / 10))
            if entropy(left..<right, top..<(top + strip)) < entropy(left..<right, (bottom - strip)..<bottom) {
                top += strip
            } else {
                bottom -= strip
            }
        }
        return (left, top)
    }

    /// libvips' attention crop, simplified: score each pixel for edges (the luminance
    /// Laplacian), saturation and skin tones, then take the window with the highest total.
    private static func attentionOrigin(_ image: Bitmap, window: (w: Int, h: Int)) -> (x: Int, y: Int) {
        let (w, h) = (image.width, image.height)
        let luma = luminance(image)
        // Summed-area table of the scores, one row and column of zeros in front.
        var table = [Double](repeating: 0, count: (w + 1) * (h + 1))
        for y in 0..<h {
            var rowSum = 0.0
            for x in 0..<w {
                let i = y * image.bytesPerRow + x * 4
                let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
                let centre = 4 * Int(luma[y * w + x])
                let around =
                    Int(luma[y * w + max(0, x - 1)]) + Int(luma[y * w + min(w - 1, x + 1)])
                    + Int(luma[max(0, y - 1) * w + x]) + Int(luma[min(h - 1, y + 1) * w + x])
                let edge = Double(abs(centre - around))
                let saturation = Double(max(r, g, b) - min(r, g, b))
                let skin = r > 95 && g > 40 && b > 20 && r > g && r > b && r - min(g, b) > 15 ? 255.0 : 0
                let score = edge * 2 + (saturation > 60 ? saturation : 0) + skin
                rowSum += score
                table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1] + rowSum
            }
        }
        var best = (x: 0, y: 0), bestScore = -1.0
        for y in 0...(h - window.h) {
            for x in 0...(w - window.w) {
                let score =
                    table[(y + window.h) * (w + 1) + x + window.w] - table[y * (w + 1) + x + window.w]
                    - table[(y + window.h) * (w + 1) + x] + table[y * (w + 1) + x]
                if score > bestScore {
                    bestScore = score
                    best = (x, y)
                }
            }
        }
        return best
    }

    /// Rec. 709 luma of each pixel, 0...255.
    private static func luminance(_ image: Bitmap) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = y * image.bytesPerRow + x * 4
                let value = 0.2126 * Double(image.pixels[i]) + 0.7152 * Double(image.pixels[i + 1]) + 0.0722 * Double(image.pixels[i + 2])
                out[y * image.width + x] = UInt8(min(255, value.rounded()))
            }
        }
        return out
    }
}

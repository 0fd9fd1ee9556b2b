/// The scale a decoder shrinks to while decoding: a power of two (1, 1/2, 1/4, …), the smallest
/// whose longest side still keeps the side the caller needs.
///
/// Only powers of two, as libvips, sharp, Pillow's `draft` and thumbor use: libjpeg-turbo's other
/// DCT scales (3/8, 5/8, 7/8 …) alias, and a picture shrunk through them lies far further from a
/// whole decode resized with Lanczos 3 than one shrunk by a power of two and then resized.
enum ShrinkOnLoad {
    /// The denominator (1, 2, 4, …, at most `maxDenominator`) of the smallest power-of-two scale
    /// of a `width` × `height` image whose longest side, rounded up, is still at least `side`.
    /// 1 when `side` is `nil` or no smaller scale keeps it.
    static func denominator(width: Int, height: Int, keeping side: Int?, maxDenominator: Int) -> Int {
        guard let side, side > 0 else { return 1 }
        let longest = max(width, height)
        var denominator = 1
        while denominator * 2 <= maxDenominator, scaled(longest, by: denominator * 2) >= side {
            denominator *= 2
        }
        return denominator
    }

    /// A side divided by `denominator`, rounded up, as libjpeg-turbo's DCT scaling rounds it.
    static func scaled(_ side: Int, by denominator: Int) -> Int {
        (side + denominator - 1) / denominator
    }
}

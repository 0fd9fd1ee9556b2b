/// Reduces an RGBA image to a palette of at most 256 entries (for GIF, and for terminals that
/// take palette images, such as sixel).
///
/// Pixels with alpha below 128 become the transparent entry. An image with few enough colours
/// gets them exactly (so GIF round trips are lossless); otherwise median cut over a 5-bit-per-
/// channel histogram chooses the palette, each entry the mean of the colours in its box, and
/// pixels map to their box's entry, optionally with Floyd–Steinberg error diffusion.
package struct ColorQuantizer: Sendable {
    /// The palette (opaque entries, then the transparent one if any).
    package var palette: [RGBA]
    /// One palette index per pixel, row by row.
    package var indices: [UInt8]
    /// The transparent entry's index, if the image has transparent pixels.
    package var transparentIndex: Int?

    /// Quantises `bitmap`, with Floyd–Steinberg error diffusion when `dithering` is on.
    package init(_ bitmap: Bitmap, dithering: Bool) {
        let image = bitmap.converted(to: .straight)
        let pixels = image.packedPixels
        let pixelCount = image.width * image.height
        let hasTransparency = stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] < 128 }
        let maxColors = hasTransparency ? 255 : 256

        if let exact = Self.exactPalette(pixels, maxColors: maxColors) {
            palette = exact.palette
            indices = [UInt8](repeating: 0, count: pixelCount)
            let transparent = UInt8(truncatingIfNeeded: palette.count)  // only used when there are at most 255 colours
            for i in 0..<pixelCount {
                let p = i * 4
                indices[i] = pixels[p + 3] < 128 ? transparent : exact.lookup[Self.key(pixels[p], pixels[p + 1], pixels[p + 2])]!
            }
        } else {
            let cut = Self.medianCut(pixels, maxColors: maxColors)
            palette = cut.palette
            indices = Self.map(
                pixels, width: image.width, height: image.height, palette: palette, boxOfBin: cut.boxOfBin,
                dithering: dithering)
        }
        if hasTransparency {
            transparentIndex = palette.count
            palette.append(RGBA(0, 0, 0, 0))
        }
    }

    private static func key(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 { UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }

    /// The image's opaque colours when there are at most `maxColors`.
    private static func exactPalette(_ pixels: [UInt8], maxColors: Int) -> (palette: [RGBA], lookup: [UInt32: UInt8])? {
        var lookup: [UInt32: UInt8] = [:]
        var palette: [RGBA] = []
        var previous: UInt32 = .max
        for p in stride(from: 0, to: pixels.count, by: 4) where pixels[p + 3] >= 128 {
            let k = key(pixels[p], pixels[p + 1], pixels[p + 2])
            if k == previous || lookup[k] != nil { previous = k; continue }
            guard palette.count < maxColors else { return nil }
            lookup[k] = UInt8(palette.count)
            palette.append(RGBA(pixels[p], pixels[p + 1], pixels[p + 2]))
            previous = k
        }
        return (palette, lookup)
    }

    /// A box of the 32x32x32 colour cube.
    private struct Box {
        var low: (Int, Int, Int)
        var high: (Int, Int, Int)  // inclusive
        var population: Int
    }

    /// Median cut: repeatedly split the most populous box along its longest side at the median.
    /// Returns the palette (each box's mean colour) and, for each 15-bit bin, the box holding it
    /// (-1 for the empty bins no box covers).
    private static func medianCut(_ pixels: [UInt8], maxColors: Int) -> (palette: [RGBA], boxOfBin: [Int16]) {
        var histogram = [Int](repeating: 0, count: 32768)
        var sums = [(Int, Int, Int)](repeating: (0, 0, 0), count: 32768)
        for p in stride(from: 0, to: pixels.count, by: 4) where pixels[p + 3] >= 128 {
            let bin = Int(pixels[p] >> 3) << 10 | Int(pixels[p + 1] >> 3) << 5 | Int(pixels[p + 2] >> 3)
            histogram[bin] += 1
            sums[bin].0 += Int(pixels[p]); sums[bin].1 += Int(pixels[p + 1]); sums[bin].2 += Int(pixels[p + 2])
        }
        func count(_ box: Box) -> Int {
            var n = 0
            for r in box.low.0...box.high.0 {
                for g in box.low.1...box.high.1 { for b in box.low.2...box.high.2 { n += histogram[r << 10 | g << 5 | b] } }
            }
            return n
        }
        func shrink(_ box: Box) -> Box {
            // Tighten to the occupied bins so splits are meaningful.
            var low = (31, 31, 31), high = (0, 0, 0)
            for r in box.low.0...box.high.0 {
                for g in box.low.1...box.high.1 {
                    for b in box.low.2...box.high.2 where histogram[r << 10 | g << 5 | b] > 0 {
                        low = (min(low.0, r), min(low.1, g), min(low.2, b)); high = (max(high.0, r), max(high.1, g), max(high.2, b))
                    }
                }
            }
            return Box(low: low, high: high, population: box.population)
        }
        var boxes = [shrink(Box(low: (0, 0, 0), high: (31, 31, 31), population: pixels.count / 4))]
        while boxes.count < maxColors {
            // The splittable box with the most pixels times volume.
            guard
                let index = boxes.indices.filter({ boxes[$0].low != boxes[$0].high ? true : false }).max(by: { a, b in
                    boxes[a].population < boxes[b].population
                })
            else { break }
            let box = boxes[index]
            let sides = [box.high.0 - box.low.0, box.high.1 - box.low.1, box.high.2 - box.low.2]
            let axis = sides.firstIndex(of: sides.max()!)!
            // Population per slice along the axis, then the median slice.
            var slices = [Int](repeating: 0, count: 32)
            for r in box.low.0...box.high.0 {
                for g in box.low.1...box.high.1 {
                    for b in box.low.2...box.high.2 {
                        slices[[r, g, b][axis]] += histogram[r << 10 | g << 5 | b]
                    }
                }
            }
            let lowEdge = [box.low.0, box.low.1, box.low.2][axis], highEdge = [box.high.0, box.high.1, box.high.2][axis]
            var running = 0, cut = lowEdge
            let total = slices[lowEdge...highEdge].reduce(0, +)
            for v in lowEdge..<highEdge {
                running += slices[v]
                cut = v
                if running * 2 >= total { break }
            }
            var a = box, b = box
            switch axis {
            case 0: a.high.0 = cut; b.low.0 = cut + 1
            case 1: a.high.1 = cut; b.low.1 = cut + 1
            default: a.high.2 = cut; b.low.2 = cut + 1
            }
            a.population = count(a); b.population = count(b)
            boxes[index] = shrink(a)
            boxes.append(shrink(b))
        }
        var boxOfBin = [Int16](repeating: -1, count: 32768)
        for (index, box) in boxes.enumerated() {
            for r in box.low.0...box.high.0 {
                for g in box.low.1...box.high.1 {
                    for b in box.low.2...box.high.2 {
                        boxOfBin[r << 10 | g << 5 | b] = Int16(index)
                    }
                }
            }
        }
        let palette = boxes.map { box in
            var sum = (0, 0, 0), n = 0
            for r in box.low.0...box.high.0 {
                for g in box.low.1...box.high.1 {
                    for b in box.low.2...box.high.2 {
                        let bin = r << 10 | g << 5 | b
                        n += histogram[bin]; sum.0 += sums[bin].0; sum.1 += sums[bin].1; sum.2 += sums[bin].2
                    }
                }
            }
            guard n > 0 else { return RGBA(UInt8(box.low.0 << 3), UInt8(box.low.1 << 3), UInt8(box.low.2 << 3)) }
            return RGBA(UInt8((sum.0 + n / 2) / n), UInt8((sum.1 + n / 2) / n), UInt8((sum.2 + n / 2) / n))
        }
        return (palette, boxOfBin)
    }

    /// Maps pixels to their palette entry: the entry of the median-cut box their 15-bit bin lies in,
    /// or for a bin no box covers (reached only by dithering) the nearest entry, found once and
    /// kept. Diffuses the error to neighbours when `dithering` is on.
    private static func map(_ pixels: [UInt8], width: Int, height: Int, palette: [RGBA], boxOfBin: [Int16], dithering: Bool) -> [UInt8] {
        var lookup = boxOfBin
        let search = NearestColorSearch(palette)
        func nearest(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
            let bin = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
            if lookup[bin] >= 0 { return UInt8(lookup[bin]) }
            // Search from the bin's centre.
            let centre: (r: Int, g: Int, b: Int) = ((r >> 3) << 3 | 4, (g >> 3) << 3 | 4, (b >> 3) << 3 | 4)
            let best = search.nearest(r: centre.r, g: centre.g, b: centre.b)
            lookup[bin] = Int16(best)
            return UInt8(best)
        }
        let transparent = UInt8(truncatingIfNeeded: palette.count)  // only used when there are at most 255 colours
        var indices = [UInt8](repeating: 0, count: width * height)
        // Error rows for Floyd–Steinberg (current and next), three channels, one pixel of margin.
        var current = [Int](repeating: 0, count: (width + 2) * 3), next = current
        for y in 0..<height {
            for x in 0..<width {
                let p = (y * width + x) * 4
                guard pixels[p + 3] >= 128 else { indices[y * width + x] = transparent; continue }
                var r = Int(pixels[p]), g = Int(pixels[p + 1]), b = Int(pixels[p + 2])
                if dithering {
                    let e = (x + 1) * 3
                    r = min(255, max(0, r + current[e] / 16)); g = min(255, max(0, g + current[e + 1] / 16));
                    b = min(255, max(0, b + current[e + 2] / 16))
                }
                let index = nearest(r, g, b)
                indices[y * width + x] = index
                if dithering {
                    let chosen = palette[Int(index)]
                    for (c, error) in [r - Int(chosen.r), g - Int(chosen.g), b - Int(chosen.b)].enumerated() {
                        current[(x + 2) * 3 + c] += error * 7
                        next[x * 3 + c] += error * 3
                        next[(x + 1) * 3 + c] += error * 5
                        next[(x + 2) * 3 + c] += error
                    }
                }
            }
            if dithering {
                swap(&current, &next)
                for i in next.indices { next[i] = 0 }
            }
        }
        return indices
    }
}

import TestSupport
import Testing

@testable import YYImage

@Suite struct NearestColorSearchTests {
    @Test func theSearchAgreesWithAScanOfEveryEntry() {
        var generator = SplitMix64(seed: 5)
        for size in [1, 2, 16, 255, 256] {
            let palette = (0..<size).map { _ in
                RGBA(
                    UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator) & 0xF0,
                    UInt8.random(in: 0...255, using: &generator))
            }
            let search = NearestColorSearch(palette)
            for _ in 0..<2000 {
                let (r, g, b) = (
                    Int.random(in: 0...255, using: &generator), Int.random(in: 0...255, using: &generator),
                    Int.random(in: 0...255, using: &generator)
                )
                var best = Int.max, bestIndex = 0
                for (i, p) in palette.enumerated() {
                    let distance = 3 * (Int(p.r) - r) * (Int(p.r) - r) + 4 * (Int(p.g) - g) * (Int(p.g) - g) + 2 * (Int(p.b) - b) * (Int(p.b) - b)
                    if distance < best { best = distance; bestIndex = i }
                }
                #expect(search.nearest(r: r, g: g, b: b) == bestIndex, "palette of \(size), query \(r),\(g),\(b)")
            }
        }
    }
}

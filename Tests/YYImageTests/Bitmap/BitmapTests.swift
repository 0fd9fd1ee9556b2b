import Testing
import YYImage

@Suite struct BitmapTests {
    @Test func wrapsPixelsWithTheirStrideAndRefusesTooFewOrANegativeSize() throws {
        // Two rows of one pixel with a stride of 8: 12 bytes, the last row needing only its own 4.
        let bitmap = try #require(Bitmap(width: 1, height: 2, bytesPerRow: 8, pixels: [1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8]))
        #expect(bitmap[0, 1] == RGBA(5, 6, 7, 8))
        #expect(Bitmap(width: 1, height: 2, bytesPerRow: 8, pixels: [UInt8](repeating: 0, count: 11)) == nil)
        #expect(Bitmap(width: 2, height: 1, bytesPerRow: 7, pixels: [UInt8](repeating: 0, count: 8)) == nil)
        #expect(Bitmap(width: -1, height: 1, pixels: []) == nil)
        #expect(Bitmap(width: 1, height: -1, pixels: []) == nil)
        #expect(Bitmap(width: 0, height: 0, pixels: []) != nil)
    }

    /// The byte counts of these sizes overflowed `Int` and trapped instead of returning `nil`.
    @Test(
        arguments: [
            (Int.max / 2, 1, nil),
            (1, Int.max, nil),
            (1, 3, Int.max / 2),
            (Int.max / 4, 2, nil),
        ] as [(Int, Int, Int?)])
    func aSizeWhoseByteCountOverflowsIsRefused(width: Int, height: Int, bytesPerRow: Int?) {
        #expect(Bitmap(width: width, height: height, bytesPerRow: bytesPerRow, pixels: [0, 0, 0, 0]) == nil)
    }

    @Test func downsamplingKeepsTheAspectRatioAndCountsASizeBelowOneAsOne() {
        let bitmap = Bitmap(width: 40, height: 20)
        let half = bitmap.downsampled(toFit: 20)
        #expect((half.width, half.height) == (20, 10))
        #expect(bitmap.downsampled(toFit: 40) == bitmap)
        for size in [0, -5] {
            let smallest = bitmap.downsampled(toFit: size)
            #expect((smallest.width, smallest.height) == (1, 1))
        }
    }

    @Test func resizingAveragesWhenShrinkingAndRepeatsWhenEnlarging() throws {
        let pixels: [UInt8] = [0, 0, 0, 255, 200, 100, 50, 255]
        let pair = try #require(Bitmap(width: 2, height: 1, pixels: pixels))
        let one = pair.resized(width: 1, height: 1)
        #expect(one[0, 0] == RGBA(100, 50, 25, 255))
        let four = pair.resized(width: 4, height: 1)
        #expect((0..<4).map { four[$0, 0] } == [RGBA(0, 0, 0, 255), RGBA(0, 0, 0, 255), RGBA(200, 100, 50, 255), RGBA(200, 100, 50, 255)])
        let clamped = pair.resized(width: 0, height: -3)
        #expect((clamped.width, clamped.height) == (1, 1))
    }
}

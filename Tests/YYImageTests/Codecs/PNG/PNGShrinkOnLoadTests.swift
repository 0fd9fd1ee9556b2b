import Foundation
import Testing

@testable import YYImage

/// A complete, non-interlaced PNG decodes shrunk on load: each block averaged as its rows are
/// inflated, the same bytes as the whole decode box-shrunk (premultiplied where it has alpha, then
/// straight again); interlaced PNGs decode whole.
struct PNGShrinkOnLoadTests {
    /// `bitmap` as PNG bytes.
    func png(_ bitmap: Bitmap) throws -> Data {
        try ImageEncoder.encode(bitmap, as: .png)
    }

    /// The whole decode of `data` box-shrunk by `factor`, as the resampler's pre-shrink makes it.
    func wholeDecodeShrunk(_ data: Data, by factor: Int) throws -> Bitmap {
        boxShrunk(try ImageDecoder(data: data).frame(at: 0), by: factor)
    }

    /// `whole` box-shrunk as the resampler does it: colour times alpha unless `whole` is known to
    /// be opaque, given back straight.
    func boxShrunk(_ whole: Bitmap, by factor: Int) -> Bitmap {
        Resampler.boxShrink(whole, factorX: factor, factorY: factor, premultiplying: !whole.isKnownOpaque, options: ResizeOptions())
            .converted(to: .straight)
    }

    @Test(arguments: [(2, 37, 29), (4, 37, 29), (8, 64, 48), (32, 100, 70), (2, 1, 5)])
    func anOpaquePNGShrinksOnLoadToTheBoxShrinkOfItsWholeDecode(factor: Int, width: Int, height: Int) throws {
        let data = try png(TestImages.photo(width, height, seed: UInt64(factor)))
        let side = (max(width, height) + factor - 1) / factor
        let shrunk = try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: side)
        #expect(shrunk.width == (width + factor - 1) / factor && shrunk.height == (height + factor - 1) / factor)
        let expected = try wholeDecodeShrunk(data, by: factor)
        #expect(shrunk.pixels == expected.pixels)
        #expect(shrunk.isKnownOpaque)
    }

    @Test func theScaleIsTheSmallestPowerOfTwoThatKeepsTheSide() throws {
        let data = try png(TestImages.photo(100, 60))
        // 100 / 4 = 25 keeps 25; 100 / 8 = 13 does not.
        #expect(try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: 25).width == 25)
        #expect(try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: 26).width == 50)
        #expect(try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: 100).width == 100)
        #expect(try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: 1).width == 4)  // at most 1/32
    }

    @Test func aPNGWithAlphaShrinksWithColourAveragedTimesAlpha() throws {
        var picture = TestImages.photo(40, 30, alpha: true)
        picture[0, 0] = RGBA(255, 0, 0, 0)  // a transparent red that must not bleed into its block
        let data = try png(picture)
        let frame = try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: 10)
        #expect(frame.width == 10 && frame.height == 8 && frame.alphaMode == .straight)
        #expect(frame.pixels == (try wholeDecodeShrunk(data, by: 4)).pixels)
        #expect(!frame.isKnownOpaque)
    }

    @Test func aTruncatedPNGIsAnErrorWhenShrinkingOnLoad() throws {
        let data = try png(TestImages.photo(64, 64))
        let cut = data.prefix(data.count * 2 / 3)
        #expect(throws: ImageError.truncated(.png)) { try ImageDecoder(data: cut).frame(at: 0, shrinkOnLoad: 16) }
    }

    @Test func aCheckpointStopsAShrinkingDecode() throws {
        let data = try png(TestImages.photo(64, 400))
        var asked = 0
        #expect(throws: ImageError.cancelled) {
            try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: 50) { () throws(ImageError) in
                asked += 1
                if asked == 2 { throw .cancelled }
            }
        }
        #expect(asked == 2)
    }

    /// Gray, palette, 16-bit images and those with alpha or tRNS shrink like RGB ones; interlaced
    /// ones decode whole.
    @Test(.enabled(if: PNGSuite.isAvailable, Comment(rawValue: PNGSuite.missingReason)))
    func everyPngSuiteImageShrinksOrDecodesWholeAsItsKindSays() throws {
        var shrunkCount = 0
        for url in PNGSuite.files {
            let data = try Data(contentsOf: url)
            guard let whole = try? ImageDecoder(data: data).frame(at: 0), whole.width >= 2 || whole.height >= 2 else { continue }
            let frame = try ImageDecoder(data: data).frame(at: 0, shrinkOnLoad: max(whole.width, whole.height) / 2)
            let name = url.lastPathComponent
            // IHDR's interlace method, the last byte of its data (file offset 28).
            let interlaced = data.count > 28 && data[data.startIndex + 28] != 0
            if frame.width == whole.width && frame.height == whole.height {
                #expect(interlaced, "\(name) decoded whole")
                continue
            }
            #expect(!interlaced, "\(name)")
            #expect(frame.pixels == boxShrunk(whole, by: 2).pixels, "\(name)")
            shrunkCount += 1
        }
        #expect(shrunkCount >= 25)  // 34 of the 35 files in Debian 12's copy (Go 1.19) are not interlaced
    }
}

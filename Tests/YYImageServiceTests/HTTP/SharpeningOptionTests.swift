import Foundation
import Testing
import YYImage

@testable import YYImageService

/// imgproxy Pro's `unsharp_masking` and `blur_areas`, free here.
extension ProcessingOptionTests {
    /// 9 × 9 grey 100 with a grey 200 pixel in the middle.
    static func dot() -> Bitmap {
        var bitmap = Bitmap(filledWith: RGBA(100, 100, 100), width: 9, height: 9)
        bitmap[4, 4] = RGBA(200, 200, 200)
        return bitmap
    }

    @Test func unsharpMaskingFollowsImgproxysWeightAndDivider() async throws {
        let png = try ImageEncoder.encode(Self.dot(), as: .png)
        try await withService(files: ["dot.png": png]) { service in
            // Off unless asked, as in imgproxy's open-source build.
            let plain = try await render(service, "f:png", "dot.png")
            #expect(plain[4, 4].r == 200 && plain[3, 4].r == 100)
            // Centre: (200 × 32 − 8 × 100) / 24 = 233; a neighbour: (100 × 32 − 700 − 200) / 24 = 96.
            let masked = try await render(service, "ush:always/f:png", "dot.png")
            #expect(masked[4, 4].r == 233 && masked[3, 4].r == 96 && masked[3, 3].r == 96 && masked[0, 0].r == 100)
            #expect(masked[4, 4].a == 255)
            // A larger weight and a smaller divider sharpen more: (200 × 12 − 8 × 2 × 100) / 4 = 200 + 200.
            let stronger = try await render(service, "unsharp_masking:always:2:4/f:png", "dot.png")
            #expect(stronger[4, 4].r == 255 && stronger[3, 4].r == 50)
            // `auto` masks only a picture scaled down, and not when `sharpen` is set.
            #expect(try await render(service, "ush:auto/f:png", "dot.png")[4, 4].r == 200)
            let photo = try await render(service, "w:100/f:png", "photo.jpg")
            let auto = try await render(service, "ush:auto/w:100/f:png", "photo.jpg")
            #expect(auto.pixels != photo.pixels)
            let sharpened = try await render(service, "sh:1/w:100/f:png", "photo.jpg")
            #expect(try await render(service, "ush:auto/sh:1/w:100/f:png", "photo.jpg").pixels == sharpened.pixels)
            for bad in ["ush:sometimes", "ush:always:0", "ush:always:1:-2", "ush:always:1:2:3"] {
                #expect(try await service.get("/insecure/\(bad)/plain/local:///dot.png").status == 400, "\(bad)")
            }
        }
    }

    @Test func blurAreasBlurOnlyTheRectanglesGivenAsFractionsOfTheSource() async throws {
        try await withService { service in
            // block.png: 40 × 20 white with a red block at x 5..<15, y 4..<10.
            let blurred = try await render(service, "ba:2:0:0:0.5:1/f:png", "block.png")
            #expect(blurred.width == 40)
            #expect(blurred[16, 6] != Self.white && blurred[16, 6].g < 250, "the block's edge spreads inside the area")
            #expect(blurred[25, 6] == Self.white && blurred[39, 19] == Self.white, "outside the area nothing changes")
            // Two areas; the second covers the block's right end only.
            let two = try await render(service, "ba:2:0.9:0.9:0.1:0.1:0.3:0:0.2:1/f:png", "block.png")
            #expect(two[4, 6] == Self.white && two[5, 6] == Self.red && two[16, 6] != Self.white)
            // The areas are placed before the resize: halved, the blurred edge stays in the left half.
            let halved = try await render(service, "ba:2:0:0:0.5:1/w:20/f:png", "block.png")
            #expect(halved[15, 5] == Self.white)
            // A sigma of 0 blurs nothing; bad arguments are a 400.
            #expect(try await render(service, "ba:0:0:0:1:1/f:png", "block.png")[16, 6] == Self.white)
            for bad in ["ba:2:0:0:0.5", "ba:2:0:0:2:1", "ba:-1:0:0:1:1", "blur_areas"] {
                #expect(try await service.get("/insecure/\(bad)/plain/local:///block.png").status == 400, "\(bad)")
            }
        }
    }

    @Test func blurAreasFollowTheSourceAsStoredThroughItsOrientation() {
        // A stored rectangle at the left edge of a picture turned a quarter clockwise (EXIF 6)
        // ends up along the top.
        let frame = Bitmap(width: 20, height: 10)
        let rects = ImageRenderer.pixelRects([[0, 0, 0.25, 1]], of: frame, storedAs: .right)
        #expect(rects == [PixelRect(x: 0, y: 0, width: 20, height: 3)])
        #expect(ImageRenderer.pixelRects([[0, 0, 0.25, 1]], of: frame, storedAs: .up) == [PixelRect(x: 0, y: 0, width: 5, height: 10)])
        #expect(ImageRenderer.pixelRects([[0, 0, 0.25, 1]], of: frame, storedAs: .down) == [PixelRect(x: 15, y: 0, width: 5, height: 10)])
    }
}

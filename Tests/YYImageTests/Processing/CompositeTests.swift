import Foundation
import TestSupport
import Testing

@testable import YYImage

@Suite struct CompositeTests {
    /// A 30 × 20 base with varying alpha, and a 7 × 5 overlay with varying alpha.
    static let base = ProcessingFixtures.texture(width: 30, height: 20, seed: 3, alpha: true)
    static let overlay = ProcessingFixtures.texture(width: 7, height: 5, seed: 9, alpha: true)

    @Test(.enabled(if: PillowReference.isAvailable, Comment(rawValue: PillowReference.missingReason)))
    func compositingMatchesPillowsAlphaCompositeWithinOneLevel() throws {
        let folder = TemporaryDirectory("composite")
        let basePath = folder.appending("base.png"), markPath = folder.appending("mark.png")
        try ImageEncoder.encode(Self.base, as: .png).write(to: URL(fileURLWithPath: basePath))
        try ImageEncoder.encode(Self.overlay, as: .png).write(to: URL(fileURLWithPath: markPath))
        // Inside, clipped at the top-left and the bottom-right, and tiled from a point inside.
        for (x, y, opacity, tiled) in [(5, 7, 0.6, false), (-3, -2, 1.0, false), (26, 17, 0.35, false), (3, -1, 0.8, true)] {
            let ours = Self.base.composited(with: Self.overlay, atX: x, y: y, opacity: opacity, tiled: tiled)
            let pillow = try PillowReference.composited(base: basePath, mark: markPath, opacity: opacity, x: x, y: y, tiled: tiled)
            #expect(maxChannelDifference(ours, width: 30, height: 20, rgba: pillow) <= 1, "at \(x), \(y), opacity \(opacity), tiled \(tiled)")
        }
    }

    @Test func tilingRepeatsTheOverlayEdgeToEdgeOverTheWholeBitmap() {
        var tile = Bitmap(width: 3, height: 2)
        for y in 0..<2 { for x in 0..<3 { tile[x, y] = RGBA(UInt8(x * 80), UInt8(y * 200), 7) } }
        let base = Bitmap(filledWith: RGBA(1, 2, 3), width: 10, height: 7, alphaMode: .straight)
        let tiled = base.composited(with: tile, atX: -1, y: 1, tiled: true)
        for y in 0..<7 {
            for x in 0..<10 { #expect(tiled[x, y] == tile[(x + 1) % 3, (y + 1) % 2], "pixel \(x), \(y)") }
        }
    }

    @Test func anOpaqueOverlayReplacesWhatItCoversAndNothingElse() {
        let base = Bitmap(filledWith: RGBA(10, 20, 30), width: 8, height: 6, alphaMode: .straight)
        let mark = Bitmap(filledWith: RGBA(200, 100, 0), width: 3, height: 2, alphaMode: .straight)
        let result = base.composited(with: mark, atX: 6, y: -1)
        for y in 0..<6 {
            for x in 0..<8 {
                let covered = x >= 6 && y < 1
                #expect(result[x, y] == (covered ? RGBA(200, 100, 0) : RGBA(10, 20, 30)), "pixel \(x), \(y)")
            }
        }
    }

    @Test func noOpacityOrNoOverlapLeavesTheBitmapAsItWas() {
        let premultiplied = Self.base.premultiplied()
        #expect(premultiplied.composited(with: Self.overlay, atX: 2, y: 2, opacity: 0) == premultiplied)
        #expect(premultiplied.composited(with: Self.overlay, atX: 30, y: 0) == premultiplied)
        #expect(premultiplied.composited(with: Self.overlay, atX: -7, y: 0) == premultiplied)
        #expect(premultiplied.composited(with: Bitmap(width: 0, height: 0), atX: 0, y: 0, tiled: true) == premultiplied)
        // Drawn over, it keeps its alpha mode.
        #expect(premultiplied.composited(with: Self.overlay, atX: 2, y: 2).alphaMode == .premultiplied)
    }
}

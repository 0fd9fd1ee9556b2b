import Foundation
import Testing

@testable import YYImage

@Suite struct RotationTests {
    @Test func quarterAnglesAreTheExactQuarterTurns() throws {
        let picture = ProcessingFixtures.texture(width: 9, height: 5, seed: 4)
        #expect(try picture.rotated(byDegrees: 90) == picture.rotated(.clockwise90))
        #expect(try picture.rotated(byDegrees: 450) == picture.rotated(.clockwise90))
        #expect(try picture.rotated(byDegrees: -90) == picture.rotated(.clockwise270))
        #expect(try picture.rotated(byDegrees: 180) == picture.rotated(.half))
        #expect(try picture.rotated(byDegrees: 360) == picture)
    }

    @Test func anAngleGrowsTheCanvasToTheBoundingBoxWithTransparentCorners() throws {
        let square = Bitmap(filledWith: RGBA(255, 0, 0), width: 20, height: 20)
        let turned = try square.rotated(byDegrees: 45)
        // 20 √2 = 28.3.
        #expect(turned.width == 29 && turned.height == 29)
        #expect(turned[14, 14] == RGBA(255, 0, 0))
        #expect(turned[0, 0].a == 0 && turned[28, 28].a == 0)
        // Edges fade without darkening: a part-covered pixel keeps the colour, not the black of
        // the transparent outside.
        let edge = turned[14, 0]
        #expect(edge.a > 0 && edge.a < 255 && edge.r >= 250 && edge.g == 0)
        #expect(turned.alphaMode == .straight)
    }

    @Test func theTurnIsClockwise() throws {
        // A black block at the middle of the right edge goes down and to the left, to 60° past it.
        var picture = Bitmap(filledWith: RGBA(255, 255, 255), width: 41, height: 41)
        for y in 17..<24 { for x in 33..<40 { picture[x, y] = RGBA(0, 0, 0) } }
        let turned = try picture.rotated(byDegrees: 60)
        let (cx, cy) = (Double(turned.width) / 2, Double(turned.height) / 2)
        let radius = 16.0
        let below = turned[Int(cx + radius * cos(.pi / 3)), Int(cy + radius * sin(.pi / 3))]
        let above = turned[Int(cx + radius * cos(.pi / 3)), Int(cy - radius * sin(.pi / 3))]
        #expect(below.r < 40 && above.r > 200)
    }

    @Test func badAnglesAndHugeCanvasesAreTypedErrors() {
        let square = Bitmap(filledWith: RGBA(255, 0, 0), width: 20, height: 20)
        #expect(throws: ImageError.self) { try square.rotated(byDegrees: .nan) }
        #expect(throws: ImageError.self) { try square.rotated(byDegrees: 30, maxPixels: 100) }
    }
}

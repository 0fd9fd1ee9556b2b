import Foundation
import TestSupport
import Testing

@testable import YYImage

@Suite struct ColorAdjustmentTests {
    /// A 24 × 16 opaque texture whose right half is the left half's complement, so that its mean
    /// grey level (Pillow's `convert("L")`) is 128: Pillow's contrast, which pivots on the mean,
    /// then pivots where ours does.
    static let balanced: Bitmap = {
        let half = ProcessingFixtures.texture(width: 12, height: 16, seed: 5)
        var bitmap = Bitmap(width: 24, height: 16)
        for y in 0..<16 {
            for x in 0..<12 {
                let p = half[x, y]
                bitmap[x, y] = p
                bitmap[x + 12, y] = RGBA(255 - p.r, 255 - p.g, 255 - p.b)
            }
        }
        return bitmap
    }()

    @Test(.enabled(if: PillowReference.isAvailable, Comment(rawValue: PillowReference.missingReason)))
    func contrastAndSaturationMatchPillowsImageEnhanceWithinOneLevel() throws {
        let folder = TemporaryDirectory("enhance")
        let path = folder.appending("in.png")
        try ImageEncoder.encode(Self.balanced, as: .png).write(to: URL(fileURLWithPath: path))
        for factor in [0.0, 0.4, 1.7, 3.0] {
            let contrast = try PillowReference.enhanced(path, kind: "Contrast", factor: factor)
            try #require(contrast.meanGrey == 128, "the picture pivots Pillow's contrast on 128")
            let ours = try Self.balanced.adjusted(ColorAdjustment(contrast: factor))
            #expect(maxChannelDifference(ours, width: 24, height: 16, rgba: Self.opaque(contrast.rgb)) <= 1, "contrast \(factor)")
            let color = try PillowReference.enhanced(path, kind: "Color", factor: factor)
            let saturated = try Self.balanced.adjusted(ColorAdjustment(saturation: factor))
            #expect(maxChannelDifference(saturated, width: 24, height: 16, rgba: Self.opaque(color.rgb)) <= 1, "saturation \(factor)")
        }
    }

    @Test func brightnessAddsLevelsToEverySampleAndKeepsAlpha() throws {
        var bitmap = Bitmap(width: 3, height: 1)
        bitmap[0, 0] = RGBA(0, 100, 250, 255)
        bitmap[1, 0] = RGBA(10, 200, 40, 128)
        bitmap[2, 0] = RGBA(255, 255, 255, 0)
        let brighter = try bitmap.adjusted(ColorAdjustment(brightness: 30))
        #expect(brighter[0, 0] == RGBA(30, 130, 255, 255))
        #expect(brighter[1, 0] == RGBA(40, 230, 70, 128))
        let darker = try bitmap.adjusted(ColorAdjustment(brightness: -50))
        #expect(darker[0, 0] == RGBA(0, 50, 200, 255))
        #expect(darker[1, 0] == RGBA(0, 150, 0, 128))
    }

    @Test func adjustingAppliesBrightnessThenContrastThenSaturation() throws {
        let all = try Self.balanced.adjusted(ColorAdjustment(brightness: 20, contrast: 1.5, saturation: 0.5))
        let oneByOne = try Self.balanced.adjusted(ColorAdjustment(brightness: 20))
            .adjusted(ColorAdjustment(contrast: 1.5)).adjusted(ColorAdjustment(saturation: 0.5))
        #expect(all == oneByOne)
        #expect(try Self.balanced.adjusted(ColorAdjustment()) == Self.balanced)
    }

    @Test func adjustmentsOutOfRangeAreTypedErrors() {
        #expect(throws: ImageError.self) { try Self.balanced.adjusted(ColorAdjustment(brightness: 256)) }
        #expect(throws: ImageError.self) { try Self.balanced.adjusted(ColorAdjustment(contrast: -1)) }
        #expect(throws: ImageError.self) { try Self.balanced.adjusted(ColorAdjustment(saturation: .nan)) }
        #expect(throws: ImageError.self) { try Self.balanced.duotone(dark: RGBA(0, 0, 0), light: RGBA(255, 255, 255), intensity: 1.5) }
        #expect(throws: ImageError.self) { try Self.balanced.colorized(with: RGBA(0, 0, 0), opacity: -0.1) }
        #expect(throws: ImageError.self) { try Self.balanced.overlaid(with: GradientOverlay(color: RGBA(0, 0, 0), opacity: 1, angle: .infinity)) }
    }

    @Test func duotoneMapsBlackToTheDarkColourAndWhiteToTheLightOne() throws {
        var bitmap = Bitmap(width: 3, height: 1)
        bitmap[0, 0] = RGBA(0, 0, 0)
        bitmap[1, 0] = RGBA(255, 255, 255)
        bitmap[2, 0] = RGBA(128, 128, 128, 90)
        let (dark, light) = (RGBA(20, 40, 120), RGBA(250, 220, 10))
        let toned = try bitmap.duotone(dark: dark, light: light, intensity: 1)
        #expect(toned[0, 0] == dark)
        #expect(toned[1, 0] == light)
        // Mid-grey sits halfway (128 / 255 of the way), alpha kept.
        #expect(toned[2, 0] == RGBA(135, 130, 65, 90))
        // Half the intensity is halfway back to the original.
        let half = try bitmap.duotone(dark: dark, light: light, intensity: 0.5)
        #expect(half[0, 0] == RGBA(10, 20, 60))
    }

    @Test func monochromeInAGreyIsGreyscaleAndInAColourPassesThroughIt() throws {
        let grey = try Self.balanced.monochrome(color: RGBA(0xb3, 0xb3, 0xb3), intensity: 1)
        #expect(maxChannelDifference(grey, width: 24, height: 16, rgba: Self.balanced.grayscaled().packedPixels) <= 1)
        var bitmap = Bitmap(width: 3, height: 1)
        let colour = RGBA(200, 60, 30)
        let tone = Bitmap.luma709(colour.r, colour.g, colour.b)
        bitmap[0, 0] = RGBA(tone, tone, tone)
        bitmap[1, 0] = RGBA(0, 0, 0)
        bitmap[2, 0] = RGBA(255, 255, 255)
        let tinted = try bitmap.monochrome(color: colour, intensity: 1)
        #expect(tinted[0, 0] == colour)
        #expect(tinted[1, 0] == RGBA(0, 0, 0))
        #expect(tinted[2, 0] == RGBA(255, 255, 255))
    }

    @Test func colorizeLaysTheColourOverEveryPixelOrOnlyOverTheColours() throws {
        var bitmap = Bitmap(width: 2, height: 1)
        bitmap[0, 0] = RGBA(200, 100, 0)
        bitmap[1, 0] = RGBA(0, 0, 0, 0)
        let over = try bitmap.colorized(with: RGBA(0, 0, 255), opacity: 0.4)
        #expect(over[0, 0] == RGBA(120, 60, 102))
        // A transparent pixel takes the colour at the opacity.
        #expect(over[1, 0] == RGBA(0, 0, 255, 102))
        let kept = try bitmap.colorized(with: RGBA(0, 0, 255), opacity: 0.4, keepsAlpha: true)
        #expect(kept[0, 0] == RGBA(120, 60, 102))
        #expect(kept[1, 0].a == 0)
    }

    @Test(arguments: [(0.0, "down"), (180.0, "up"), (270.0, "right"), (90.0, "left")])
    func aGradientGrowsFromTransparentToItsColourTowardsItsDirection(angle: Double, name: String) throws {
        let white = Bitmap(filledWith: RGBA(255, 255, 255), width: 40, height: 40)
        let faded = try white.overlaid(with: GradientOverlay(color: RGBA(0, 0, 0), opacity: 1, angle: angle))
        // The pixel nearest the transparent edge and the one nearest the solid edge, per direction.
        let (first, last): ((Int, Int), (Int, Int)) =
            switch name {
            case "down": ((20, 0), (20, 39))
            case "up": ((20, 39), (20, 0))
            case "right": ((0, 20), (39, 20))
            default: ((39, 20), (0, 20))
            }
        #expect(faded[first.0, first.1].r >= 248, "\(name): transparent edge")
        #expect(faded[last.0, last.1].r <= 7, "\(name): solid edge")
        #expect(abs(Int(faded[20, 20].r) - 127) <= 4, "\(name): halfway")
    }

    @Test func aGradientShowsOnlyBetweenItsStartAndStopAtItsOpacity() throws {
        let white = Bitmap(filledWith: RGBA(255, 255, 255), width: 10, height: 100)
        let band = try white.overlaid(with: GradientOverlay(color: RGBA(0, 0, 0), opacity: 0.5, start: 0.5, stop: 0.7))
        #expect(band[5, 10] == RGBA(255, 255, 255))
        #expect(band[5, 49] == RGBA(255, 255, 255))
        #expect(band[5, 80] == RGBA(127, 127, 127))
        #expect(band[5, 99] == RGBA(127, 127, 127))
        let edge = try white.overlaid(with: GradientOverlay(color: RGBA(0, 0, 0), opacity: 1, start: 0.3, stop: 0.3))
        #expect(edge[0, 29] == RGBA(255, 255, 255))
        #expect(edge[0, 30] == RGBA(0, 0, 0))
    }

    @Test func flatteningOntoATranslucentBackgroundIsOverAndStaysTranslucent() {
        var bitmap = Bitmap(width: 2, height: 1)
        bitmap[0, 0] = RGBA(255, 0, 0, 0)
        bitmap[1, 0] = RGBA(255, 0, 0, 128)
        let flat = bitmap.flattened(onto: RGBA(0, 0, 255, 128))
        #expect(flat[0, 0] == RGBA(0, 0, 255, 128))
        // Alpha 128 + 128 × 127 / 255 ≈ 192; red weighs 128 against the background's 64.
        #expect(flat[1, 0].a == 192)
        #expect(flat[1, 0].r == 170 && flat[1, 0].b == 85)
    }

    /// RGB bytes as opaque RGBA.
    static func opaque(_ rgb: [UInt8]) -> [UInt8] {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(rgb.count / 3 * 4)
        for i in stride(from: 0, to: rgb.count, by: 3) { rgba += [rgb[i], rgb[i + 1], rgb[i + 2], 255] }
        return rgba
    }
}

import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

/// Our Lanczos 3 against Pillow's and libvips' on real photos (`../shared/testdata/photos`).
@Suite(.needsSharedTestData, .enabled(if: PillowReference.isAvailable, "\(PillowReference.missingReason)"))
struct PeerResizeTests {
    /// PSNR in dB of `ours`' RGB samples against `reference` (RGB bytes).
    static func psnr(_ ours: Bitmap, _ reference: [UInt8]) -> Double {
        var squared = 0.0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let p = ours[x, y], i = (y * ours.width + x) * 3
                for (a, b) in [(p.r, reference[i]), (p.g, reference[i + 1]), (p.b, reference[i + 2])] {
                    squared += Double((Int(a) - Int(b)) * (Int(a) - Int(b)))
                }
            }
        }
        let mean = squared / Double(ours.width * ours.height * 3)
        return mean == 0 ? .infinity : 10 * log10(255 * 255 / mean)
    }

    @Test(arguments: ["fruits.png", "quebec.png"])
    func ourLanczos3IsWithin40dBOfPillowAndLibvips(_ name: String) throws {
        let path = TestData.url("photos/" + name).path
        let photo = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path))).frame(at: 0)
        let (width, height) = (photo.width / 3, photo.height / 3)
        var options = ResizeOptions()
        options.reducingGap = nil  // as Pillow's resize and libvips' resize with gap 0
        let ours = Resampler.resize(photo, width: width, height: height, options: options)
        let float = FloatReferenceResampler.resize(photo, width: width, height: height, kernel: .lanczos3)
        var rounded = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { for c in 0..<3 { rounded[i * 3 + c] = UInt8(float[i * 4 + c].rounded()) } }
        var rgb = [UInt8]()
        for y in 0..<photo.height { for x in 0..<photo.width { let p = photo[x, y]; rgb += [p.r, p.g, p.b] } }
        let size = (photo.width, photo.height)
        let pillow = try #require(try PillowReference.resized(rgb, size: size, width: width, height: height, library: "pillow"))
        let pillowBitmap = Self.bitmap(pillow, width: width, height: height)
        var report =
            "\(name) → \(width)x\(height): ours vs float \(Self.psnr(ours, rounded)) dB, Pillow vs float \(Self.psnr(pillowBitmap, rounded)) dB"
        #expect(Self.psnr(ours, pillow) >= 40, "ours vs Pillow: \(Self.psnr(ours, pillow)) dB")
        if let vips = try PillowReference.resized(rgb, size: size, width: width, height: height, library: "pyvips") {
            #expect(Self.psnr(ours, vips) >= 40, "ours vs libvips: \(Self.psnr(ours, vips)) dB")
            report += ", libvips vs float \(Self.psnr(Self.bitmap(vips, width: width, height: height), rounded)) dB"
        } else {
            Issue.record("pyvips is not installed: run scripts/setup --reference")
        }
        print(report)
    }

    static func bitmap(_ rgb: [UInt8], width: Int, height: Int) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for i in 0..<(width * height) { bitmap[i % width, i / width] = RGBA(rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]) }
        return bitmap
    }
}

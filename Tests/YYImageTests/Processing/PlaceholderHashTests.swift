import Foundation
import TestSupport
import Testing

@testable import YYImage

@Suite(.enabled(if: PillowReference.hasPlaceholderHashes, "the blurhash and thumbhash packages are not installed: run scripts/setup --reference"))
struct PlaceholderHashTests {
    /// Opaque and translucent textures, landscape and portrait, with a smooth gradient under the noise.
    static func pictures() -> [(name: String, bitmap: Bitmap)] {
        func picture(width: Int, height: Int, seed: UInt64, alpha: Bool) -> Bitmap {
            var bitmap = ProcessingFixtures.texture(width: width, height: height, seed: seed, alpha: alpha)
            for y in 0..<height {
                for x in 0..<width {
                    let p = bitmap[x, y]
                    bitmap[x, y] = RGBA(UInt8((Int(p.r) / 4) + x * 150 / width), p.g / 3, UInt8(255 - y * 200 / height), p.a)
                }
            }
            return bitmap
        }
        return [
            ("opaque landscape", picture(width: 48, height: 32, seed: 2, alpha: false)),
            ("opaque portrait", picture(width: 20, height: 60, seed: 3, alpha: false)),
            ("translucent", picture(width: 40, height: 40, seed: 4, alpha: true)),
        ]
    }

    @Test func blurHashEqualsTheReferenceAndHoldsTheAverageColour() throws {
        let folder = TemporaryDirectory("blurhash")
        for (name, bitmap) in Self.pictures() where bitmap.isOpaque {
            let path = folder.appending("\(name).png")
            try ImageEncoder.encode(bitmap, as: .png).write(to: URL(fileURLWithPath: path))
            for (x, y) in [(4, 3), (1, 1), (9, 9)] {
                let ours = try BlurHash.encode(bitmap, componentsX: x, componentsY: y)
                #expect(ours == (try PillowReference.placeholderHashes(["blurhash", path, "\(x)", "\(y)"])), "\(name) \(x)x\(y)")
            }
            // Its first component is the mean colour in linear light, back in sRGB.
            let average = try #require(BlurHash.averageColor(of: try BlurHash.encode(bitmap)))
            let mean = Self.linearMean(bitmap)
            #expect(abs(Int(average.r) - mean.r) <= 1 && abs(Int(average.g) - mean.g) <= 1 && abs(Int(average.b) - mean.b) <= 1, "\(name)")
        }
    }

    @Test func thumbHashEqualsTheReferenceAndHoldsTheAverageColour() throws {
        let folder = TemporaryDirectory("thumbhash")
        for (name, bitmap) in Self.pictures() {
            let path = folder.appending("\(name).png")
            try ImageEncoder.encode(bitmap, as: .png).write(to: URL(fileURLWithPath: path))
            let ours = try ThumbHash.encode(bitmap)
            let hex = ours.map { String(format: "%02x", $0) }.joined()
            // The Python package's encoder fails on translucent pictures (its alpha channel's
            // mean is a tuple): those are checked through its decoder only.
            if bitmap.isOpaque {
                #expect(hex == (try PillowReference.placeholderHashes(["thumbhash", path])), "\(name)")
            } else {
                #expect(ours[2] & 0x80 != 0, "\(name): the header says it has alpha")
            }
            // Decoded by the reference, the hash gives back the picture's average colour (over its alpha).
            let average = try PillowReference.placeholderHashes(["thumbaverage", hex]).split(separator: " ").compactMap { Int($0) }
            let mean = Self.alphaWeightedMean(bitmap)
            #expect(abs(average[0] - mean.r) <= 6 && abs(average[1] - mean.g) <= 6 && abs(average[2] - mean.b) <= 6, "\(name): \(average)")
        }
    }

    @Test func badInputIsATypedError() {
        let big = Bitmap(width: 101, height: 10)
        #expect(throws: ImageError.self) { try ThumbHash.encode(big) }
        #expect(throws: ImageError.self) { try BlurHash.encode(big, componentsX: 10, componentsY: 1) }
        #expect(throws: ImageError.self) { try BlurHash.encode(Bitmap(width: 0, height: 0)) }
        #expect(BlurHash.averageColor(of: "~~~~~~") == nil && BlurHash.averageColor(of: "LE") == nil)
    }

    /// The mean of the pixels in linear light, as sRGB levels.
    static func linearMean(_ bitmap: Bitmap) -> (r: Int, g: Int, b: Int) {
        func linear(_ v: UInt8) -> Double {
            let x = Double(v) / 255
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        func level(_ v: Double) -> Int {
            Int(((v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055) * 255).rounded())
        }
        var sums = (0.0, 0.0, 0.0)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                sums = (sums.0 + linear(p.r), sums.1 + linear(p.g), sums.2 + linear(p.b))
            }
        }
        let n = Double(bitmap.width * bitmap.height)
        return (level(sums.0 / n), level(sums.1 / n), level(sums.2 / n))
    }

    /// The alpha-weighted mean colour, in sRGB levels.
    static func alphaWeightedMean(_ bitmap: Bitmap) -> (r: Int, g: Int, b: Int) {
        var (r, g, b, a) = (0.0, 0.0, 0.0, 0.0)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y], alpha = Double(p.a) / 255
                (r, g, b, a) = (r + alpha * Double(p.r), g + alpha * Double(p.g), b + alpha * Double(p.b), a + alpha)
            }
        }
        return (Int((r / a).rounded()), Int((g / a).rounded()), Int((b / a).rounded()))
    }
}

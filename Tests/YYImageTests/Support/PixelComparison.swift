import Foundation
import TestSupport
import Testing

@testable import YYImage

/// How far two RGBA images are apart: the largest channel difference over pixels where at least
/// one side is visible (colour under alpha 0 is not compared: formats and decoders disagree on
/// it and it never shows).
func maxChannelDifference(_ ours: Bitmap, _ reference: ReferenceFrame) -> Int {
    maxChannelDifference(ours, width: reference.width, height: reference.height, rgba: reference.rgba)
}

/// The same, against packed RGBA bytes; `Int.max` when the sizes differ.
func maxChannelDifference(_ ours: Bitmap, width: Int, height: Int, rgba: [UInt8]) -> Int {
    guard ours.width == width, ours.height == height else { return Int.max }
    let mine = ours.converted(to: .straight).packedPixels
    var worst = 0
    var i = 0
    while i < mine.count {
        if mine[i + 3] != 0 || rgba[i + 3] != 0 {
            for c in 0..<4 { worst = max(worst, abs(Int(mine[i + c]) - Int(rgba[i + c]))) }
        }
        i += 4
    }
    return worst
}

/// The same between two bitmaps.
func maxChannelDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
    maxChannelDifference(a, width: b.width, height: b.height, rgba: b.converted(to: .straight).packedPixels)
}

/// Expects every frame of `decoder` within `tolerance` of the reference's frames, and as many.
func expectFrames(
    of decoder: ImageDecoder, match reference: [ReferenceFrame], tolerance: Int = 0, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(decoder.frameCount == reference.count, "\(label): frame count", sourceLocation: sourceLocation)
    for (index, expected) in reference.enumerated() where index < decoder.frameCount {
        let difference = maxChannelDifference(try decoder.frame(at: index), expected)
        #expect(difference <= tolerance, "\(label) frame \(index): max channel difference \(difference)", sourceLocation: sourceLocation)
    }
}

/// Peak signal-to-noise ratio over the RGB channels, in dB (infinite when equal).
func psnr(_ a: Bitmap, _ b: Bitmap) -> Double { a.psnr(against: b) }

/// Sample images in the shared test data.
enum Samples {
    static func path(_ relative: String) -> String { TestData.url("yykit/images/" + relative).path }
    static func data(_ relative: String) throws -> Data { try Data(contentsOf: TestData.url("yykit/images/" + relative)) }
}

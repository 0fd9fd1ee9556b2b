import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

/// Every composited frame of the YYKit samples equals a reference decoder no one here wrote:
/// Pillow, and for APNG also apngdis (the APNG project's disassembler). Tolerance per case: 0
/// for lossless formats; up to 3 for lossy WebP and 2 for JPEG, because Pillow links newer
/// libwebp / libjpeg-turbo builds (the measured difference on these files is 0 today).
///
/// Pillow disagrees with apngdis on pia@2x.png frame 5: frame 4 disposes to "previous" and
/// Pillow restores the wrong region. We follow apngdis and the APNG spec; the test pins both.
@Suite(
    .needsSharedTestData,
    .enabled(if: PillowReference.isAvailable, Comment(rawValue: PillowReference.missingReason)))
struct SampleConformanceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let tolerance: Int
        var testDescription: String { file }
    }

    static let animatedPNGs = ["demo/cube@2x.png", "demo/pia@2x.png", "compare/ermilio.png"]

    @Test(
        .enabled(if: APNGDisassembler.isAvailable, Comment(rawValue: APNGDisassembler.missingReason)),
        arguments: animatedPNGs)
    func everyAPNGFrameEqualsApngdis(_ file: String) throws {
        let decoder = try ImageDecoder(data: try Samples.data(file))
        #expect(decoder.frameCount > 1)
        try expectFrames(of: decoder, match: try APNGDisassembler.frames(of: Samples.path(file)), file)
    }

    @Test func onPiasDisposePreviousFrameWeAgreeWithApngdisNotPillow() throws {
        let pillow = try PillowReference.decode(Samples.path("demo/pia@2x.png"))
        let frame = try ImageDecoder(data: try Samples.data("demo/pia@2x.png")).frame(at: 5)
        #expect(maxChannelDifference(frame, pillow.frames[5]) > 100)
        if APNGDisassembler.isAvailable {
            #expect(maxChannelDifference(frame, try APNGDisassembler.frames(of: Samples.path("demo/pia@2x.png"))[5]) == 0)
        }
    }

    static let cases: [Case] = [
        Case(file: "demo/cube@2x.png", tolerance: 0),
        Case(file: "compare/ermilio.png", tolerance: 0),
        Case(file: "compare/ermilio.gif", tolerance: 0),
        Case(file: "misc/Demo.gif", tolerance: 0),
        Case(file: "demo/mew_baseline.gif", tolerance: 0),
        Case(file: "demo/mew_interlaced.gif", tolerance: 0),
        Case(file: "demo/mew_baseline.png", tolerance: 0),
        Case(file: "demo/mew_interlaced.png", tolerance: 0),
        Case(file: "misc/Weibo@3x.jpg", tolerance: 0),  // PNG bytes under a .jpg name
        Case(file: "compare/ermilio_lossless.webp", tolerance: 0),
        Case(file: "demo/nyancat@2x.webp", tolerance: 0),
        Case(file: "demo/wall-e@2x.webp", tolerance: 3),
        Case(file: "demo/google@2x.webp", tolerance: 3),
        Case(file: "compare/ermilio_q85.webp", tolerance: 3),
        Case(file: "compare/ermilio_q90.webp", tolerance: 3),
        Case(file: "demo/mew_baseline.jpg", tolerance: 2),
        Case(file: "demo/mew_progressive.jpg", tolerance: 2),
        Case(file: "misc/Twitter@3x.jpg", tolerance: 2),
    ]

    @Test(arguments: cases)
    func everyCompositedFrameMatchesPillow(_ sample: Case) throws {
        let decoder = try ImageDecoder(data: try Samples.data(sample.file))
        try expectFrames(of: decoder, match: try PillowReference.decode(Samples.path(sample.file)).frames, tolerance: sample.tolerance, sample.file)
    }

    @Test func theQQEmoticonGIFsMatchPillowFrameForFrame() throws {
        let files = TestData.files(in: "yykit/images/EmoticonQQ.bundle").filter { $0.pathExtension == "gif" }
        #expect(files.count > 100)
        for file in files {
            let decoder = try ImageDecoder(data: try Data(contentsOf: file))
            try expectFrames(of: decoder, match: try PillowReference.decode(file.path).frames, file.lastPathComponent)
        }
    }
}

import Foundation
import TestSupport
import Testing

@testable import YYImage

enum JPEGXLReference {
    static var isAvailable: Bool { ImageType.jpegXL.isDecodable && FormatReference.has("cjxl", "djxl") }
}

/// JPEG XL against libjxl's own `cjxl` and `djxl`.
@Suite(.enabled(if: JPEGXLReference.isAvailable, "needs cjxl, djxl (libjxl-tools) and Pillow: run scripts/setup --reference"))
struct JPEGXLCodecTests {
    let folder = TemporaryDirectory("jxl")

    /// `djxl`'s picture of `path`, and Pillow's account of it (an APNG for animations).
    func reference(_ path: String) throws -> PillowReference.Result {
        let png = folder.appending("reference-\(UUID().uuidString).png")
        try FormatReference.run("djxl", [path, png])
        return try PillowReference.decode(png)
    }

    func source(_ bitmap: Bitmap, _ name: String) throws -> String {
        let path = folder.appending("\(name).png")
        try FormatReference.writePNG(bitmap, to: path)
        return path
    }

    @Test(arguments: [false, true])
    func losslessFilesDecodeExactly(alpha: Bool) throws {
        let picture = FormatReference.picture(alpha: alpha)
        let path = folder.appending("lossless-\(alpha).jxl")
        try FormatReference.run("cjxl", ["-d", "0", try source(picture, "source-\(alpha)"), path])
        let ours = try FormatReference.ours(path)
        #expect(maxChannelDifference(ours, picture) == 0)
        #expect(maxChannelDifference(ours, try reference(path).frames[0]) == 0)
    }

    @Test func lossyFilesMatchDjxl() throws {
        let path = folder.appending("lossy.jxl")
        try FormatReference.run("cjxl", ["-d", "1.5", try source(FormatReference.picture(alpha: true), "source"), path])
        #expect(maxChannelDifference(try FormatReference.ours(path), try reference(path).frames[0]) == 0)
    }

    @Test func animationsHaveTheirFramesAndDurations() throws {
        let frames = (0..<3).map { FormatReference.picture(width: 30, height: 22 + $0, alpha: $0 == 1).resizedCanvas(width: 30, height: 24) }
        var apng = ImageEncoder(type: .png)
        for (index, frame) in frames.enumerated() { apng.addFrame(frame, duration: 0.1 * Double(index + 1)) }
        let png = folder.appending("animation.png")
        try apng.encode(to: URL(fileURLWithPath: png))
        let path = folder.appending("animation.jxl")
        try FormatReference.run("cjxl", ["-d", "0", png, path])
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoder.frameCount == 3)
        #expect(decoder.frameInfos.map { ($0.duration * 1000).rounded() } == [100, 200, 300])
        for index in [2, 0, 1, 2] {
            #expect(maxChannelDifference(try decoder.frame(at: index), frames[index]) == 0, "frame \(index)")
        }
    }

    @Test(arguments: [false, true])
    func ourStillsReadBackThroughDjxl(lossless: Bool) throws {
        let picture = FormatReference.picture(alpha: true)
        var encoder = ImageEncoder(type: .jpegXL)
        encoder.lossless = lossless
        encoder.effort = 3
        encoder.addFrame(picture)
        let path = folder.appending("ours-\(lossless).jxl")
        try encoder.encode(to: URL(fileURLWithPath: path))
        let djxl = try reference(path).frames[0]
        if lossless {
            #expect(maxChannelDifference(picture, djxl) == 0)
        } else {
            #expect(FormatReference.meanDifference(FormatReference.bitmap(djxl), picture) < 4)
        }
    }

    @Test func ourAnimationsKeepFramesDurationsAndLoopCount() throws {
        let frames = (0..<3).map { FormatReference.picture(width: 28, height: 20, alpha: $0 != 1).oriented($0 == 2 ? .down : .up) }
        var encoder = ImageEncoder(type: .jpegXL)
        encoder.lossless = true
        encoder.effort = 3
        encoder.loopCount = 4
        for (index, frame) in frames.enumerated() { encoder.addFrame(frame, duration: 0.04 * Double(index + 1)) }
        let path = folder.appending("ours-animation.jxl")
        try encoder.encode(to: URL(fileURLWithPath: path))
        let djxl = try reference(path)
        #expect(djxl.frames.count == 3)
        #expect(djxl.durations.compactMap { $0 } == [40, 80, 120])
        #expect(djxl.loop == 4)
        for index in 0..<3 { #expect(maxChannelDifference(frames[index], djxl.frames[index]) == 0, "frame \(index)") }
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoder.loopCount == 4)
    }

    @Test func partialProgressiveFilesShowTheFirstPass() throws {
        let picture = FormatReference.picture(width: 512, height: 384, alpha: false)
        let path = folder.appending("progressive.jxl")
        try FormatReference.run("cjxl", ["-d", "1", "-p", try source(picture, "progressive-source"), path])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let complete = try ImageDecoder(data: data).frame(at: 0)
        var shown: [(length: Int, difference: Double)] = []
        var headerAt: Int?
        for tenth in 1...9 {
            let length = data.count * tenth / 10
            let decoder = ImageDecoder()
            guard try decoder.update(data: data.prefix(length), final: false) else { continue }
            headerAt = headerAt ?? length
            #expect(decoder.frameCount == 1 && decoder.canvasWidth == 512 && decoder.canvasHeight == 384)
            let frame = try decoder.frame(at: 0)
            if frame.pixels.contains(where: { $0 != 0 }) {
                shown.append((length, FormatReference.meanDifference(frame, complete)))
            }
        }
        #expect(headerAt == data.count / 10)
        // The first pass (1:8, so an 8-pixel checkerboard is a blur) appears before half the
        // file has arrived, far closer to the final picture than a blank one, and each later
        // pass is closer still.
        let blank = FormatReference.meanDifference(Bitmap(width: 512, height: 384), complete)
        let steps = shown.map { "\($0.length): \($0.difference)" }
        #expect(shown.first.map { $0.length <= data.count / 2 && $0.difference < blank / 2 } == true, "\(steps), blank \(blank)")
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0.difference >= $1.difference }, "\(steps)")
        #expect(shown.last.map { $0.difference < 10 } == true, "\(steps)")
    }
}

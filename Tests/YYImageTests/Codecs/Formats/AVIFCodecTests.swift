import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

enum AVIFReference {
    static var isAvailable: Bool { ImageType.avif.isDecodable && FormatReference.has("avifenc", "avifdec") }
}

/// AVIF against libavif's own `avifenc` and `avifdec`, and the real-world files with rotation,
/// mirroring and clean aperture in `shared/testdata/formats/avif-kimono`.
@Suite(.enabled(if: AVIFReference.isAvailable, "needs avifenc, avifdec (libavif-bin) and Pillow: run scripts/setup --reference"))
struct AVIFCodecTests {
    let folder = TemporaryDirectory("avif")

    /// `avifdec`'s 8-bit picture of frame `index` of `path`.
    func reference(_ path: String, index: Int = 0) throws -> ReferenceFrame {
        let png = folder.appending("reference-\(UUID().uuidString).png")
        try FormatReference.run("avifdec", ["-d", "8", "--index", String(index), path, png])
        return try FormatReference.pillow(png).frame
    }

    func source(_ bitmap: Bitmap, _ name: String) throws -> String {
        let path = folder.appending("\(name).png")
        try FormatReference.writePNG(bitmap, to: path)
        return path
    }

    @Test(arguments: [false, true])
    func losslessFilesDecodeExactly(alpha: Bool) throws {
        let picture = FormatReference.picture(alpha: alpha)
        let path = folder.appending("lossless-\(alpha).avif")
        try FormatReference.run("avifenc", ["--lossless", "-s", "9", try source(picture, "source-\(alpha)"), path])
        let ours = try FormatReference.ours(path)
        #expect(maxChannelDifference(ours, picture) == 0)
        #expect(maxChannelDifference(ours, try reference(path)) == 0)
    }

    @Test(arguments: [8, 10, 12])
    func lossyFilesOfEveryDepthMatchAvifdec(depth: Int) throws {
        let path = folder.appending("lossy-\(depth).avif")
        try FormatReference.run(
            "avifenc",
            [
                "-d", String(depth), "-s", "9", "--min", "20", "--max", "30",
                try source(FormatReference.picture(alpha: true), "source"), path,
            ])
        let ours = try FormatReference.ours(path)
        #expect(maxChannelDifference(ours, try reference(path)) == 0, "depth \(depth)")
        #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path))).bitDepth == depth)
    }

    @Test func sequencesHaveTheirFramesAndDurations() throws {
        let frames = (0..<3).map { FormatReference.picture(width: 32 + $0, height: 24, alpha: $0 == 1).resizedCanvas(width: 34, height: 24) }
        var arguments = ["--lossless", "-s", "9", "--timescale", "1000"]
        for (index, frame) in frames.enumerated() {
            arguments += ["--duration", String(100 * (index + 1)), try source(frame, "frame-\(index)")]
        }
        let path = folder.appending("sequence.avif")
        try FormatReference.run("avifenc", arguments + [path])
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoder.frameCount == 3)
        #expect(decoder.frameInfos.map(\.duration) == [0.1, 0.2, 0.3])
        // Out of order on purpose: random access rewinds.
        for index in [2, 0, 1, 2] {
            let ours = try decoder.frame(at: index)
            #expect(maxChannelDifference(ours, try reference(path, index: index)) == 0, "frame \(index)")
            // libaom's inter frames are not bit-exact even at quantizer 0: close, not equal.
            #expect(FormatReference.meanDifference(ours, frames[index]) < 3, "frame \(index)")
        }
    }

    @Test(.needsSharedTestData)
    func realWorldTransformsGiveTheUprightPicture() throws {
        let folder = TestData.root.appendingPathComponent("formats/avif-kimono").path
        let upright = try FormatReference.ours(folder + "/kimono.avif")
        let expectedOrientation: [String: ImageOrientation] = [
            "kimono.rotate90": .right, "kimono.rotate270": .left, "kimono.mirror-horizontal": .upMirrored,
            "kimono.mirror-vertical": .downMirrored, "kimono.mirror-vertical.rotate270": .leftMirrored,
        ]
        // Each file stores kimono.png turned or mirrored, with the properties that undo it: every
        // one displays as the plain file does (the encodes differ, so within the lossy error).
        for (name, orientation) in expectedOrientation {
            let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).avif")))
            #expect(decoder.orientation == orientation, "\(name)")
            let frame = try decoder.frame(at: 0)
            #expect(frame.width == upright.width && frame.height == upright.height, "\(name)")
            #expect(FormatReference.meanDifference(frame, upright) < 4, "\(name)")
        }
        // Kept as stored, the turned files are their encoders' sources.
        var stored = ImageDecoder.Options()
        stored.appliesOrientation = false
        for name in ["kimono.rotate90", "kimono.mirror-vertical.rotate270"] {
            let frame = try FormatReference.ours("\(folder)/\(name).avif", options: stored)
            let source = try FormatReference.ours("\(folder)/\(name).png")
            #expect(FormatReference.meanDifference(frame, source) < 6, "\(name) stored")
        }
        let cropped = try FormatReference.ours(folder + "/kimono.crop.avif")
        let expected = try FormatReference.ours(folder + "/kimono.crop.png")
        #expect(cropped.width == 385 && cropped.height == 330)
        #expect(FormatReference.meanDifference(cropped, expected) < 6)
    }

    @Test(arguments: [false, true])
    func ourStillsReadBackThroughAvifdecAndPillow(lossless: Bool) throws {
        let picture = FormatReference.picture(alpha: true)
        var encoder = ImageEncoder(type: .avif)
        encoder.lossless = lossless
        encoder.effort = 1
        encoder.addFrame(picture)
        let path = folder.appending("ours-\(lossless).avif")
        try encoder.encode(to: URL(fileURLWithPath: path))
        let avifdec = FormatReference.bitmap(try reference(path))
        let pillow = try PillowReference.decode(path)
        if lossless {
            #expect(maxChannelDifference(picture, avifdec) == 0)
            #expect(maxChannelDifference(picture, pillow.frames[0]) == 0)
        } else {
            #expect(FormatReference.meanDifference(avifdec, picture) < 8)
            #expect(maxChannelDifference(avifdec, pillow.frames[0]) <= 2)
        }
    }

    @Test func losslessAtFastSpeedsDoesNotReachLibaomsAssertion() throws {
        // libaom asserts on lossless stills at speed 10 and lossless sequences from speed 7.
        for frames in [1, 3] {
            var encoder = ImageEncoder(type: .avif)
            encoder.lossless = true
            encoder.effort = 0
            for index in 0..<frames { encoder.addFrame(FormatReference.picture(alpha: index == 1), duration: 0.1) }
            let decoder = try ImageDecoder(data: try encoder.encode())
            #expect(decoder.frameCount == frames)
            #expect(maxChannelDifference(try decoder.frame(at: 0), FormatReference.picture(alpha: false)) == 0)
        }
    }

    @Test func ourSequencesKeepFramesAndDurations() throws {
        let frames = (0..<3).map { FormatReference.picture(width: 30, height: 20 + $0, alpha: true) }
        var encoder = ImageEncoder(type: .avif)
        encoder.lossless = true
        encoder.effort = 1
        for (index, frame) in frames.enumerated() { encoder.addFrame(frame, duration: 0.05 * Double(index + 1)) }
        let path = folder.appending("ours-sequence.avif")
        try encoder.encode(to: URL(fileURLWithPath: path))
        let info = try FormatReference.run("avifdec", ["--info", path]).text
        #expect(info.contains("3 frames") || info.contains("Decoded frame [2]"))
        let pillow = try PillowReference.decode(path)
        #expect(pillow.frames.count == 3)
        #expect(pillow.durations.compactMap { $0 } == [50, 100, 150])
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decoder.frameInfos.map(\.duration) == [0.05, 0.1, 0.15])
        for index in 0..<3 {
            let expected = frames[index].resizedCanvas(width: 30, height: 22)
            let avifdec = FormatReference.bitmap(try reference(path, index: index))
            #expect(maxChannelDifference(try decoder.frame(at: index), avifdec) == 0, "frame \(index)")
            #expect(FormatReference.meanDifference(avifdec, expected) < 3, "frame \(index)")
        }
    }

    @Test func partialGridFilesShowTheCellsThatArrived() throws {
        let picture = FormatReference.picture(width: 128, height: 128, alpha: false)
        let path = folder.appending("grid.avif")
        try FormatReference.run("avifenc", ["--lossless", "-s", "9", "--grid", "2x2", try source(picture, "grid-source"), path])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let complete = try ImageDecoder(data: data).frame(at: 0)
        #expect(maxChannelDifference(complete, picture) == 0)
        var rowsSeen: Set<Int> = []
        var headerAt: Int?
        for length in stride(from: 64, to: data.count, by: 97) {
            let decoder = ImageDecoder()
            guard try decoder.update(data: data.prefix(length), final: false) else { continue }
            headerAt = headerAt ?? length
            #expect(decoder.canvasWidth == 128 && decoder.canvasHeight == 128)
            let frame = try decoder.frame(at: 0)
            // Whole rows of cells arrive: each row is either the final row or still transparent.
            var rows = 0
            for y in 0..<128 {
                let row = frame.pixels[(y * 512)..<((y + 1) * 512)]
                if row == complete.pixels[(y * 512)..<((y + 1) * 512)] {
                    #expect(rows == y, "row \(y) decoded after a missing one (\(length) bytes)")
                    rows = y + 1
                } else {
                    #expect(row.allSatisfy { $0 == 0 }, "row \(y) is neither decoded nor empty (\(length) bytes)")
                }
            }
            rowsSeen.insert(rows)
        }
        #expect(headerAt.map { $0 < data.count / 4 } == true, "header known at \(headerAt ?? -1) of \(data.count) bytes")
        #expect(rowsSeen.contains(0) && rowsSeen.contains(64), "rows shown: \(rowsSeen.sorted())")
    }

    @Test func partialPlainFilesKnowTheirSizeBeforeThePixels() throws {
        let path = folder.appending("plain.avif")
        try FormatReference.run("avifenc", ["-s", "9", try source(FormatReference.picture(alpha: true), "plain-source"), path])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let decoder = ImageDecoder()
        #expect(try decoder.update(data: data.prefix(data.count - 1), final: false))
        #expect(decoder.canvasWidth == 67 && decoder.canvasHeight == 45)
        #expect(try decoder.frame(at: 0).pixels.allSatisfy { $0 == 0 })
        try decoder.update(data: data, final: true)
        #expect(try decoder.frame(at: 0) == (try ImageDecoder(data: data).frame(at: 0)))
    }
}

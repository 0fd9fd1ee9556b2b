import Foundation
import TestSupport
import Testing

@testable import YYImage

/// Compositing edge cases, made here with our writers and checked against Pillow (GIF, WebP)
/// and apngdis (APNG), plus the documented rules where references disagree or refuse.
struct CompositingTests {
    static let red = RGBA(255, 0, 0), green = RGBA(0, 255, 0), blue = RGBA(0, 0, 255), clear = RGBA(0, 0, 0, 0)
    static let palette = [red, green, blue, RGBA(255, 255, 255)]

    /// Decodes with us and with Pillow and expects every frame equal.
    static func expectMatchesPillow(_ bytes: [UInt8], name: String, tolerance: Int = 0) throws -> ImageDecoder {
        let folder = TemporaryDirectory("compositing")
        let path = try TestImages.file(bytes, name: name, in: folder)
        let decoder = try ImageDecoder(data: Data(bytes))
        if PillowReference.isAvailable {
            try expectFrames(of: decoder, match: try PillowReference.decode(path).frames, tolerance: tolerance, name)
        }
        return decoder
    }

    // MARK: GIF

    /// The references disagree here, so the rules are pinned directly: for an opaque GIF, Pillow
    /// keeps the canvas under a first-frame "previous" and fills "background" with the
    /// background colour, ImageMagick fills with white, gif2webp with opaque black. We follow
    /// browsers and wuffs: both restore to transparent.
    @Test func gifDisposalToPreviousOnFrameZeroRestoresTransparencyAndBackgroundClears() throws {
        let frames = [
            TestImages.gifFrame(ImageFrameInfo(x: 0, y: 0, width: 8, height: 8, duration: 0.1, disposal: .previous), palette: Self.palette) { _, _ in
                0
            },
            TestImages.gifFrame(ImageFrameInfo(x: 2, y: 2, width: 4, height: 4, duration: 0.1, disposal: .background), palette: Self.palette) {
                _, _ in 1
            },
            TestImages.gifFrame(ImageFrameInfo(x: 4, y: 0, width: 4, height: 4, duration: 0.1, disposal: .previous), palette: Self.palette) { _, _ in
                2
            },
            TestImages.gifFrame(ImageFrameInfo(x: 0, y: 4, width: 2, height: 2, duration: 0.1), palette: Self.palette) { _, _ in 3 },
        ]
        let bytes = try GIFWriter.write(width: 8, height: 8, frames: frames, plays: 0)
        let decoder = try ImageDecoder(data: Data(bytes))
        #expect(try decoder.frame(at: 0)[0, 0] == Self.red)
        #expect(try decoder.frame(at: 1)[0, 0] == Self.clear)  // frame 0 restored to "before it": transparent
        #expect(try decoder.frame(at: 1)[3, 3] == Self.green)
        #expect(try decoder.frame(at: 2)[3, 3] == Self.clear)  // frame 1 cleared its rectangle
        #expect(try decoder.frame(at: 2)[5, 1] == Self.blue)
        #expect(try decoder.frame(at: 3)[5, 1] == Self.clear)  // frame 2 restored
        #expect(try decoder.frame(at: 3)[1, 5] == RGBA(255, 255, 255))
    }

    @Test func gifFramesPartlyOutsideTheScreenAreClippedZeroSizeFramesDrawNothing() throws {
        let frames = [
            TestImages.gifFrame(ImageFrameInfo(width: 6, height: 6, duration: 0.05), palette: Self.palette) { _, _ in 0 },
            TestImages.gifFrame(ImageFrameInfo(x: 4, y: 4, width: 6, height: 6, duration: 0.05), palette: Self.palette) { _, _ in 1 },
            TestImages.gifFrame(ImageFrameInfo(x: 1, y: 1, width: 0, height: 0, duration: 0.05), palette: Self.palette) { _, _ in 2 },
        ]
        let bytes = try GIFWriter.write(width: 6, height: 6, frames: frames, plays: 1)
        let decoder = try ImageDecoder(data: Data(bytes))
        #expect(decoder.frameCount == 3)
        #expect(try decoder.frame(at: 1)[5, 5] == Self.green)
        #expect(try decoder.frame(at: 1)[3, 3] == Self.red)
        #expect(try decoder.frame(at: 2) == (try decoder.frame(at: 1)))
    }

    @Test func gifFrameWithoutPaletteDrawsBlackAndATransparencyIndexBeyondThePaletteWorks() throws {
        var wide = TestImages.gifFrame(ImageFrameInfo(width: 4, height: 4, duration: 0.1), palette: Self.palette, transparent: 200) { x, _ in
            x == 0 ? 200 : x == 1 ? 100 : 1
        }
        wide.minimumCodeSize = 8  // lets indices exceed the 4-entry palette
        let frames = [
            TestImages.gifFrame(ImageFrameInfo(width: 4, height: 4, duration: 0.1), palette: []) { _, _ in 1 },
            wide,
            TestImages.gifFrame(ImageFrameInfo(width: 4, height: 4, duration: 0.1), palette: Self.palette) { _, _ in 3 },
        ]
        let bytes = try GIFWriter.write(width: 4, height: 4, frames: frames, plays: 0)
        let decoder = try ImageDecoder(data: Data(bytes))
        #expect(try decoder.frame(at: 0)[2, 2] == RGBA(0, 0, 0))
        let second = try decoder.frame(at: 1)
        #expect(second[0, 0] == RGBA(0, 0, 0))  // transparent index 200: the black below shows
        #expect(second[1, 0] == RGBA(0, 0, 0))  // index 100: beyond the palette, opaque black
        #expect(second[2, 0] == Self.green)
        #expect(try decoder.frame(at: 2)[0, 0] == RGBA(255, 255, 255))  // no transparency leaks into frame 2
    }

    @Test func gifInterlacedFrameDecodesLikeTheSameFrameStoredInOrder() throws {
        let pattern: (Int, Int) -> UInt8 = { x, y in UInt8((x / 3 + y) % 4) }
        let plain = try GIFWriter.write(
            width: 13, height: 23,
            frames: [
                TestImages.gifFrame(ImageFrameInfo(width: 13, height: 23), palette: Self.palette, pattern: pattern)
            ], plays: 1)
        let interlaced = try GIFWriter.write(
            width: 13, height: 23,
            frames: [
                TestImages.gifFrame(ImageFrameInfo(width: 13, height: 23), palette: Self.palette, interlaced: true, pattern: pattern)
            ], plays: 1)
        let decoded = try Self.expectMatchesPillow(interlaced, name: "interlaced.gif")
        #expect(try decoded.frame(at: 0) == (try ImageDecoder(data: Data(plain)).frame(at: 0)))
    }

    @Test(arguments: [(1, 1), (3, 3), (0, 0)])
    func gifLoopCountNoExtensionIsOnePlayRepeatsArePlusOneZeroIsForever(plays: Int, expected: Int) throws {
        let frame = TestImages.gifFrame(ImageFrameInfo(width: 2, height: 2, duration: 0), palette: Self.palette) { _, _ in 0 }
        let bytes = try GIFWriter.write(width: 2, height: 2, frames: [frame, frame], plays: plays)
        let decoder = try ImageDecoder(data: Data(bytes))
        #expect(decoder.loopCount == expected)
        #expect(decoder.frameInfos.map(\.duration) == [0, 0])  // stored as is; Image applies the 100 ms rule
        if PillowReference.isAvailable {
            let folder = TemporaryDirectory("loop")
            let reference = try PillowReference.decode(try TestImages.file(bytes, name: "loop.gif", in: folder))
            // Pillow reports the stored repeat count, and nothing without the extension.
            #expect(reference.loop == (plays == 1 ? nil : plays == 0 ? 0 : plays - 1))
        }
    }

    // MARK: APNG

    static func apngFrame(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ disposal: FrameDisposal, _ blend: FrameBlend, _ color: RGBA) -> APNGWriter.Frame {
        APNGWriter.Frame(
            info: ImageFrameInfo(x: x, y: y, width: w, height: h, duration: 0.1, disposal: disposal, blend: blend),
            pixels: TestImages.solid(w, h, color))
    }

    /// Decodes with us and with apngdis and expects every frame equal.
    static func expectMatchesAPNGDisassembler(_ bytes: [UInt8], tolerance: Int = 0) throws -> ImageDecoder {
        let decoder = try ImageDecoder(data: Data(bytes))
        if APNGDisassembler.isAvailable {
            let folder = TemporaryDirectory("apng")
            let reference = try APNGDisassembler.frames(of: try TestImages.file(bytes, name: "case.png", in: folder))
            try expectFrames(of: decoder, match: reference, tolerance: tolerance, "APNG case")
        }
        return decoder
    }

    @Test func apngDisposePreviousOnFrameZeroActsAsBackgroundAndEveryDisposalAndBlendWorks() throws {
        let halfRed = RGBA(255, 0, 0, 128)
        let frames = [
            Self.apngFrame(0, 0, 8, 8, .previous, .over, Self.blue),
            Self.apngFrame(2, 2, 4, 4, .previous, .over, halfRed),
            Self.apngFrame(0, 0, 4, 4, .background, .source, RGBA(0, 255, 0, 64)),
            Self.apngFrame(4, 4, 4, 4, .none, .over, halfRed),
        ]
        let bytes = try APNGWriter.write(width: 8, height: 8, frames: frames, plays: 2)
        let decoder = try Self.expectMatchesAPNGDisassembler(bytes, tolerance: 1)
        #expect(decoder.loopCount == 2)
        #expect(decoder.frameInfos[0].disposal == .background)
        #expect(try decoder.frame(at: 1)[0, 0] == Self.clear)  // frame 0 cleared (previous -> background)
        #expect(try decoder.frame(at: 1)[3, 3] == halfRed)  // over transparent: the source itself
        #expect(try decoder.frame(at: 2)[3, 3] == RGBA(0, 255, 0, 64))  // source replaces, alpha included
        #expect(try decoder.frame(at: 3)[1, 1] == Self.clear)  // frame 2 cleared its rectangle
        #expect(try decoder.frame(at: 3)[3, 3] == Self.clear)  // frame 1 restored to before it (transparent)
    }

    @Test func apngDefaultImageOutsideTheAnimationIsNotAFrame() throws {
        let frames = [Self.apngFrame(0, 0, 4, 4, .none, .source, Self.green), Self.apngFrame(1, 1, 2, 2, .none, .over, Self.blue)]
        let bytes = try APNGWriter.write(width: 4, height: 4, frames: frames, plays: 0, defaultImage: TestImages.solid(4, 4, Self.red))
        let decoder = try Self.expectMatchesAPNGDisassembler(bytes)
        #expect(decoder.frameCount == 2)
        #expect(try decoder.frame(at: 0)[0, 0] == Self.green)
        #expect(try decoder.frame(at: 1)[1, 1] == Self.blue)
    }

    @Test func apngBrokenAnimationChunksFallBackToTheStillDefaultImage() throws {
        let frames = [Self.apngFrame(0, 0, 4, 4, .none, .source, Self.green), Self.apngFrame(1, 1, 2, 2, .none, .over, Self.blue)]
        let good = try APNGWriter.write(width: 4, height: 4, frames: frames, plays: 0)
        let chunks = PNGChunk.scan(good).chunks
        let fdat = chunks.first { $0.type == "fdAT" }!
        let fctl = chunks.last { $0.type == "fcTL" }!

        var badSequence = good
        badSequence[fdat.data.lowerBound + 3] ^= 0x7F
        var badCRC = good
        badCRC[fdat.data.upperBound - 1] ^= 0xFF
        var outside = good  // second frame's x moved past the canvas, CRC fixed up
        outside[fctl.data.lowerBound + 15] = 200
        let crc = CRC32.checksum(outside[(fctl.data.lowerBound - 4)..<fctl.data.upperBound])
        outside.replaceSubrange(
            fctl.data.upperBound..<(fctl.data.upperBound + 4),
            with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
        for bytes in [badSequence, badCRC, outside] {
            let decoder = try ImageDecoder(data: Data(bytes))
            #expect(decoder.frameCount == 1)
            #expect(try decoder.frame(at: 0)[0, 0] == Self.green)
        }
        #expect(try ImageDecoder(data: Data(good)).frameCount == 2)
    }

    // MARK: WebP

    @Test(.enabled(if: WebPTools.isAvailable, Comment(rawValue: WebPTools.missingReason)))
    func webpOffsetsDisposeToBackgroundAndBlendModesWithPartialAlpha() throws {
        let folder = TemporaryDirectory("webpmux")
        let parts: [(Bitmap, String)] = [
            (TestImages.solid(16, 16, RGBA(0, 0, 255, 200)), "+100+0+0+0-b"),
            (TestImages.solid(8, 8, RGBA(255, 0, 0, 128)), "+100+4+4+1+b"),
            (TestImages.solid(8, 8, RGBA(0, 255, 0, 100)), "+100+6+2+0-b"),
            (TestImages.solid(6, 6, RGBA(255, 255, 0, 60)), "+100+0+10+0+b"),
        ]
        var arguments: [String] = []
        for (index, part) in parts.enumerated() {
            let path = folder.appending("f\(index).webp")
            try Data(try WebPWriter.still(part.0, quality: 100, lossless: true)).write(to: URL(fileURLWithPath: path))
            arguments += ["-frame", path, part.1]
        }
        let output = folder.appending("anim.webp")
        let result = try ChildProcess.run(WebPTools.webpmux!, arguments + ["-loop", "3", "-bgcolor", "0,0,0,0", "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let decoder = try Self.expectMatchesPillow(bytes, name: "anim.webp", tolerance: 1)
        #expect(decoder.loopCount == 3)
        #expect(decoder.frameInfos.map(\.disposal) == [.none, .background, .none, .none])
        #expect(decoder.frameInfos.map(\.blend) == [.source, .over, .source, .over])
    }
}

/// libwebp's command-line tools.
enum WebPTools {
    static let webpmux = ChildProcess.systemExecutable("webpmux")
    static var isAvailable: Bool { webpmux != nil }
    static let missingReason = "webpmux is not installed: run scripts/setup --reference (Debian package webp)"
}

import Foundation
import TestSupport
import Testing
import YYImage

@testable import YYTerminal

/// Kitty, iTerm2 and sixel output decoded back to pixels.
@Suite struct GraphicsRendererTests {
    /// A frame with a few flat colours and a gradient, 37 × 23 (odd sizes: partial sixel bands).
    static func frame(width: Int = 37, height: Int = 23, gradient: Bool = false) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] =
                    gradient
                    ? RGBA(UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x * y) % 256), 255)
                    : [RGBA(255, 0, 0, 255), RGBA(0, 128, 255, 255), RGBA(250, 250, 240, 255)][(x / 5 + y / 4) % 3]
            }
        }
        return bitmap
    }

    /// The payloads of every APC `ESC _ G control ; payload ESC \` in `bytes`.
    static func kittyCommands(_ bytes: [UInt8]) -> [(control: String, payload: String)] {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.components(separatedBy: "\u{1B}_G").dropFirst().map { part in
            let body = part.components(separatedBy: "\u{1B}\\")[0]
            let pieces = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(pieces[0]), pieces.count > 1 ? String(pieces[1]) : "")
        }
    }

    @Test func kittyChunksDecodeBackToTheFramesPixels() throws {
        var renderer = KittyRenderer()
        let frame = Self.frame(width: 61, height: 47)  // 11 KB of RGBA: several chunks
        let commands = Self.kittyCommands(renderer.draw(frame, columns: 7, rows: 3))
        #expect(commands.count > 2)
        #expect(commands[0].control == "a=T,f=32,s=61,v=47,i=\(KittyRenderer.imageIDs.0),c=7,r=3,C=1,q=2,m=1")
        #expect(commands.dropFirst().dropLast().allSatisfy { $0.control == "m=1" })
        #expect(commands.last?.control == "m=0")
        #expect(commands.allSatisfy { $0.payload.utf8.count <= 4096 })
        let decoded = try #require(Data(base64Encoded: commands.map(\.payload).joined()))
        #expect([UInt8](decoded) == frame.packedPixels)
    }

    @Test func kittyAlternatesTwoImageIDsAndDeletesTheOldOneAfterPlacingTheNew() {
        var renderer = KittyRenderer()
        let frame = Self.frame(width: 2, height: 2)
        _ = renderer.draw(frame, columns: 1, rows: 1)
        let second = Self.kittyCommands(renderer.draw(frame, columns: 1, rows: 1))
        #expect(second.first?.control.contains("i=\(KittyRenderer.imageIDs.1)") == true)
        #expect(second.last?.control == "a=d,d=I,i=\(KittyRenderer.imageIDs.0),q=2")
        let third = Self.kittyCommands(renderer.draw(frame, columns: 1, rows: 1))
        #expect(third.first?.control.contains("i=\(KittyRenderer.imageIDs.0)") == true)
        #expect(Self.kittyCommands(renderer.finish()).map(\.control) == ["a=d,d=I,i=\(KittyRenderer.imageIDs.0),q=2"])
    }

    @Test func itermInlineImageIsAPNGOfTheFrame() throws {
        var renderer = ITermRenderer()
        let frame = Self.frame()
        let text = String(decoding: renderer.draw(frame, columns: 4, rows: 2), as: UTF8.self)
        let start = try #require(text.range(of: "\u{1B}]1337;File=inline=1;"))
        let body = text[start.upperBound...].prefix { $0 != "\u{07}" }
        let header = body.prefix { $0 != ":" }
        #expect(header.contains("width=4;height=2;preserveAspectRatio=1"))
        let png = try #require(Data(base64Encoded: String(body.dropFirst(header.count + 1))))
        #expect(header.contains("size=\(png.count)"))
        #expect(try ImageDecoder(data: png).frame(at: 0) == frame)
    }

    /// Decodes sixel bytes with libsixel's `sixel2png`.
    static func decodeWithLibsixel(_ sixel: [UInt8]) throws -> Bitmap? {
        guard let tool = ChildProcess.systemExecutable("sixel2png") else { return nil }
        let folder = TemporaryDirectory("sixel")
        let input = folder.appending("frame.six"), output = folder.appending("frame.png")
        try Data(sixel).write(to: URL(fileURLWithPath: input))
        let result = try ChildProcess.run(tool, ["-i", input, "-o", output])
        #expect(result.status == 0, "sixel2png: \(result.standardError)")
        let png = try #require(FileManager.default.contents(atPath: output))
        return try ImageDecoder(data: png).frame(at: 0)
    }

    static let libsixelMissing = "sixel2png (Debian's libsixel-bin) is not installed; scripts/setup --reference installs it"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sixel2png"), Comment(rawValue: libsixelMissing)))
    func sixelOfAFewColoursDecodesBackWithinPercentRounding() throws {
        let frame = Self.frame()
        let decoded = try #require(try Self.decodeWithLibsixel(SixelRenderer.encode(frame)))
        #expect(decoded.width == frame.width)
        #expect(decoded.height == frame.height)
        // Three colours fit the palette exactly; sixel stores percentages (±1.3 of 255).
        #expect(maximumChannelDifference(decoded, frame) <= 2)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sixel2png"), Comment(rawValue: libsixelMissing)))
    func sixelOfAGradientDecodesBackToItsMedianCutPalette() throws {
        let frame = Self.frame(width: 64, height: 40, gradient: true)
        let decoded = try #require(try Self.decodeWithLibsixel(SixelRenderer.encode(frame)))
        // Each pixel is its palette entry's colour, within percent rounding...
        let quantized = ColorQuantizer(frame, dithering: false)
        var expected = frame
        for y in 0..<frame.height {
            for x in 0..<frame.width { expected[x, y] = quantized.palette[Int(quantized.indices[y * frame.width + x])] }
        }
        #expect(maximumChannelDifference(decoded, expected) <= 2)
        // ...and 256 entries stay close to a picture of 2,560 colours (noisy blue included).
        #expect(meanChannelDifference(decoded, frame) < 10)
    }

    @Test func sixelWritesRunsWithRepeatsAndLeavesTransparentPixelsOut() {
        var bitmap = Bitmap(width: 10, height: 6)
        for x in 0..<10 { for y in 0..<6 { bitmap[x, y] = RGBA(255, 0, 0, x < 8 ? 255 : 0) } }
        let text = String(decoding: SixelRenderer.encode(bitmap), as: UTF8.self)
        // One opaque colour (register 0), eight full columns, two empty ones.
        #expect(text == "\u{1B}P0;1;0q\"1;1;10;6#0;2;100;0;0#0!8~??-\u{1B}\\")
    }

    func maximumChannelDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        zip(a.packedPixels, b.packedPixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    func meanChannelDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        let pairs = zip(a.packedPixels, b.packedPixels)
        return Double(pairs.reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.packedPixels.count)
    }
}

@Suite struct TerminalDetectionTests {
    @Test func tmuxAndScreenAlwaysGetBlocks() {
        let kitty = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c".utf8)
        #expect(TerminalGraphicsProtocol.detect(environment: ["TMUX": "/tmp/tmux-0/default,1,0"], reply: kitty) == .blocks)
        #expect(TerminalGraphicsProtocol.detect(environment: ["TERM": "screen-256color"], reply: kitty) == .blocks)
        #expect(TerminalGraphicsProtocol.detect(environment: ["TERM": "tmux-256color"], reply: nil) == .blocks)
    }

    @Test func itermComesFromTheEnvironment() {
        #expect(TerminalGraphicsProtocol.detect(environment: ["TERM_PROGRAM": "iTerm.app"], reply: nil) == .iterm)
        #expect(TerminalGraphicsProtocol.detect(environment: ["LC_TERMINAL": "iTerm2"], reply: nil) == .iterm)
    }

    @Test func kittyAndSixelComeFromTheReply() {
        let kitty = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c".utf8)
        let sixel = Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8)
        let plain = Array("\u{1B}[?1;2c".utf8)
        #expect(TerminalGraphicsProtocol.detect(environment: ["TERM": "xterm-kitty"], reply: kitty) == .kitty)
        #expect(TerminalGraphicsProtocol.detect(environment: ["TERM": "xterm"], reply: sixel) == .sixel)
        #expect(TerminalGraphicsProtocol.detect(environment: ["TERM": "xterm"], reply: plain) == .blocks)
        #expect(TerminalGraphicsProtocol.detect(environment: ["TERM": "xterm"], reply: nil) == .blocks)
    }

    @Test func aReplyIsCompleteOnceTheDeviceAttributesEnd() {
        #expect(!TerminalGraphicsProtocol.isCompleteReply(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4".utf8)))
        #expect(TerminalGraphicsProtocol.isCompleteReply(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c".utf8)))
        #expect(TerminalGraphicsProtocol.deviceAttributes(in: Array("junk\u{1B}[?1;2c".utf8)) == [1, 2])
        #expect(TerminalGraphicsProtocol.deviceAttributes(in: Array("\u{1B}[?1;x2c".utf8)) == nil)
    }
}

@Suite struct TerminalImageFitTests {
    @Test func blocksFitTheTerminalKeepingTheAspectRatioWithoutEnlarging() {
        // 400 × 200 in 80 × 24: columns limit (80 px wide, 40 px = 20 rows).
        #expect(
            TerminalImageFit.fit(
                width: 400, height: 200, protocol: .blocks, requestedColumns: nil,
                terminalColumns: 80, terminalRows: 24)
                == TerminalImageFit(pixelWidth: 80, pixelHeight: 40, columns: 80, rows: 20))
        // 100 × 300 in 80 × 24: rows limit (48 px high).
        #expect(
            TerminalImageFit.fit(
                width: 100, height: 300, protocol: .blocks, requestedColumns: nil,
                terminalColumns: 80, terminalRows: 24)
                == TerminalImageFit(pixelWidth: 16, pixelHeight: 48, columns: 16, rows: 24))
        // Small images stay as they are.
        #expect(
            TerminalImageFit.fit(
                width: 10, height: 7, protocol: .blocks, requestedColumns: nil,
                terminalColumns: 80, terminalRows: 24)
                == TerminalImageFit(pixelWidth: 10, pixelHeight: 7, columns: 10, rows: 4))
    }

    @Test func aRequestedWidthScalesUpOrDown() {
        #expect(
            TerminalImageFit.fit(
                width: 10, height: 10, protocol: .blocks, requestedColumns: 30,
                terminalColumns: 80, terminalRows: 24)
                == TerminalImageFit(pixelWidth: 30, pixelHeight: 30, columns: 30, rows: 15))
    }

    @Test func noFitPassesTheMaximumPixelCountWhateverTheWidthAsked() {
        for (width, height) in [(10, 10), (1, 1000), (1000, 1)] {
            let fit = TerminalImageFit.fit(
                width: width, height: height, protocol: .kitty, requestedColumns: 100_000,
                terminalColumns: 80, terminalRows: 24)
            #expect(
                fit.pixelWidth * fit.pixelHeight <= TerminalImageFit.maximumPixelCount + fit.pixelWidth + fit.pixelHeight,
                "\(width)x\(height): \(fit)")
            #expect(fit.pixelWidth * fit.pixelHeight >= TerminalImageFit.maximumPixelCount / 2, "\(width)x\(height): \(fit)")
        }
    }

    @Test func graphicsProtocolsCountCellsInPixels() {
        #expect(
            TerminalImageFit.fit(
                width: 400, height: 400, protocol: .kitty, requestedColumns: nil,
                terminalColumns: 80, terminalRows: 24, cellPixels: (8, 16))
                == TerminalImageFit(pixelWidth: 384, pixelHeight: 384, columns: 48, rows: 24))
    }
}

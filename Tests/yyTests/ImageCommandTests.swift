import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

/// `yy image info|convert|frames` as scripts run them: outputs, files and exit codes.
@Suite(.needsSharedTestData)
struct ImageCommandTests {
    let folder = TemporaryDirectory("cliimage")

    func yy(_ arguments: String...) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess.run(binary, arguments)
    }

    static func sample(_ path: String) -> String { TestData.url("yykit/images/" + path).path }

    @Test func infoPrintsTypeSizeFramesLoopAndDurations() throws {
        let result = try yy("image", "info", Self.sample("demo/pia@2x.png"))
        #expect(result.status == 0)
        #expect(
            result.text == """
                type: png
                size: 220x220
                frames: 6
                loop: forever
                durations: 0.15 0.15 0.15 0.15 0.15 0.15

                """)
    }

    @Test func infoSaysTheBitDepthOfASixteenBitPNG() throws {
        let path = folder.appending("sixteen.png")
        try Self.sixteenBitGrayPNG().write(to: URL(fileURLWithPath: path))
        let result = try yy("image", "info", path)
        #expect(result.status == 0)
        #expect(result.text == "type: png\nsize: 2x1\nframes: 1\nloop: forever\nbit depth: 16\n")
    }

    /// A 2 × 1 16-bit grey PNG (our encoders write 8 bits only), from the PNG writer's pieces.
    static func sixteenBitGrayPNG() throws -> Data {
        var header = [UInt8]()
        header.appendBE(UInt32(2))
        header.appendBE(UInt32(1))
        header += [16, 0, 0, 0, 0]
        let row: [UInt8] = [0, 0x12, 0x34, 0xAB, 0xCD]  // filter 0, then two 16-bit samples
        var png = PNGChunk.signature
        PNGChunk.append(type: "IHDR", data: header[...], to: &png)
        PNGChunk.append(type: "IDAT", data: try PNGWriter.zlib(row, level: 6)[...], to: &png)
        PNGChunk.append(type: "IEND", data: [], to: &png)
        return Data(png)
    }

    @Test func infoJSONHasEveryFrame() throws {
        let result = try yy("image", "info", Self.sample("demo/nyancat@2x.webp"), "--json")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(object["type"] as? String == "webp")
        #expect(object["width"] as? Int == 400)
        #expect(object["height"] as? Int == 400)
        #expect(object["frameCount"] as? Int == 12)
        #expect(object["loopCount"] as? Int == 0)
        #expect(object["bitDepth"] as? Int == 8)
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.count == 12)
        #expect(frames.allSatisfy { ($0["duration"] as? Double) == 0.07 })
    }

    @Test func framesWritesEveryCompositedFrameAsRGBAPNG() throws {
        let output = folder.appending("frames")
        let result = try yy("image", "frames", Self.sample("demo/pia@2x.png"), output)
        #expect(result.status == 0, "\(result.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(names == (0..<6).map { String(format: "frame-%04d.png", $0) })
        let decoder = try ImageDecoder(data: try Data(contentsOf: URL(fileURLWithPath: Self.sample("demo/pia@2x.png"))))
        for (index, name) in names.enumerated() {
            let data = try Data(contentsOf: URL(fileURLWithPath: output + "/" + name))
            #expect(data[25] == 6)  // IHDR colour type 6: RGBA
            #expect(try ImageDecoder(data: data).frame(at: 0) == (try decoder.frame(at: index)))
        }
    }

    @Test func convertToALinkToStandardOutputWritesThroughItAndKeepsTheLink() throws {
        // As `yy image convert a.gif /dev/stdout --type png | …`: the atomic write renamed a file
        // over the link, so nothing reached the pipe (and as root, /dev/stdout became a file).
        // A link of the test's own stands in for /dev/stdout.
        let link = folder.appending("stdout")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/fd/1")
        let result = try yy("image", "convert", Self.sample("demo/mew_baseline.png"), link, "--type", "png")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(ImageType(sniffing: result.standardOutput) == .png)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/fd/1")
    }

    @Test func convertKeepsAnimationsAcrossTypes() throws {
        let webp = folder.appending("ermilio.webp")
        #expect(try yy("image", "convert", Self.sample("compare/ermilio.gif"), webp, "--lossless", "--loop", "3").status == 0)
        let decoder = try ImageDecoder(data: try Data(contentsOf: URL(fileURLWithPath: webp)))
        let original = try ImageDecoder(data: try Data(contentsOf: URL(fileURLWithPath: Self.sample("compare/ermilio.gif"))))
        #expect(decoder.type == .webp)
        #expect(decoder.frameCount == 28)
        #expect(decoder.loopCount == 3)
        #expect(try decoder.frame(at: 27) == (try original.frame(at: 27)))
        let apng = folder.appending("out.bin")
        #expect(try yy("image", "convert", webp, apng, "--type", "apng").status == 0)
        #expect(try ImageDecoder(data: try Data(contentsOf: URL(fileURLWithPath: apng))).frameCount == 28)
        let jpeg = folder.appending("still.jpg")
        #expect(try yy("image", "convert", Self.sample("demo/mew_baseline.png"), jpeg, "--quality", "0.5").status == 0)
        #expect(ImageType(sniffing: try Data(contentsOf: URL(fileURLWithPath: jpeg))) == .jpeg)
    }

    @Test func errorsGoToStandardErrorWithNonZeroExits() throws {
        let missing = try yy("image", "info", folder.appending("missing.png"))
        #expect(missing.status == 2)
        #expect(!missing.standardError.isEmpty)
        let text = folder.appending("text.png")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: text))
        let invalid = try yy("image", "info", text)
        #expect(invalid.status == 1)
        #expect(invalid.standardError.contains("unknown image format"))
        #expect(try yy("image", "convert", Self.sample("demo/pia@2x.png"), folder.appending("x.tga")).status == 2)
        #expect(try yy("image", "convert", Self.sample("demo/pia@2x.png"), folder.appending("x.png"), "--quality", "7").status == 2)
        let unwritable = try yy("image", "convert", Self.sample("demo/pia@2x.png"), "/proc/nope/x.png")
        #expect(unwritable.status == 3)
        #expect(unwritable.standardError == "yy: /proc/nope/x.png: cannot write: No such file or directory\n")
        let file = folder.appending("a-file")
        try Data().write(to: URL(fileURLWithPath: file))
        let notAFolder = try yy("image", "frames", Self.sample("demo/pia@2x.png"), file)
        #expect(notAFolder.status == 3)
        #expect(notAFolder.standardError == "yy: \(file): exists and is not a folder\n")
        #expect(try yy("image", "frames").status == 2)
    }
}

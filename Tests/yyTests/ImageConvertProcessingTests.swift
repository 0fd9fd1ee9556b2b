import Foundation
import TestSupport
import Testing
import YYImage

/// `yy image convert`'s processing flags, on inputs the tests write themselves.
@Suite struct ImageConvertProcessingTests {
    let folder = TemporaryDirectory("cliprocess")

    func yy(_ arguments: [String]) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess.run(binary, arguments)
    }

    /// A 600×400 PNG: the left half transparent, the right half opaque blue.
    func input() throws -> String {
        var bitmap = Bitmap(width: 600, height: 400)
        for y in 0..<400 { for x in 300..<600 { bitmap[x, y] = RGBA(0, 0, 255) } }
        let path = folder.appending("in.png")
        try ImageEncoder.encode(bitmap, as: .png).write(to: URL(fileURLWithPath: path))
        return path
    }

    func decoded(_ path: String) throws -> ImageDecoder {
        try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(
        arguments: [
            (["--width", "300"], 300, 200),
            (["--height", "100"], 150, 100),
            (["--width", "300", "--height", "300", "--fit", "cover"], 300, 300),
            (["--width", "300", "--height", "300", "--fit", "contain"], 300, 300),
            (["--width", "300", "--height", "100", "--fit", "fill", "--kernel", "catmull-rom"], 300, 100),
            (["--width", "300", "--height", "300", "--fit", "outside"], 450, 300),
            (["--width", "1200"], 600, 400),
            (["--width", "1200", "--enlarge"], 1200, 800),
            (["--crop", "10,20,100,50"], 100, 50),
            (["--rotate", "90", "--width", "100"], 100, 150),
        ] as [([String], Int, Int)])
    func outputSizesFollowTheFlags(_ flags: [String], _ width: Int, _ height: Int) throws {
        let output = folder.appending("out.png")
        let result = try yy(["image", "convert", try input(), output] + flags)
        #expect(result.status == 0, "\(result.standardError)")
        let decoder = try decoded(output)
        #expect((decoder.canvasWidth, decoder.canvasHeight) == (width, height), "\(flags)")
    }

    @Test(.enabled(if: ImageType.svg.isDecodable, "needs the LibRSVG trait"))
    func anSVGIsReadAndDrawnAtTheSizeAskedFor() throws {
        let svg = folder.appending("halves.svg")
        try Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 4 2">
              <rect width="2" height="2" fill="#ff0000"/><rect x="2" width="2" height="2" fill="#0000ff"/>
            </svg>
            """.utf8
        ).write(to: URL(fileURLWithPath: svg))
        let info = try yy(["image", "info", svg])
        #expect(info.status == 0 && info.text.contains("type: svg") && info.text.contains("size: 40x20"))
        // Larger than the document without --enlarge, and sharp: drawn, not scaled.
        let large = folder.appending("large.png")
        #expect(try yy(["image", "convert", svg, large, "--width", "400"]).status == 0)
        let frame = try decoded(large).frame(at: 0)
        #expect(frame.width == 400 && frame.height == 200)
        #expect(frame[199, 100] == RGBA(255, 0, 0) && frame[200, 100] == RGBA(0, 0, 255))
        // SVG is not written.
        #expect(try yy(["image", "convert", try input(), folder.appending("out.svg")]).status != 0)
    }

    @Test func jpegOutputFlattensTransparencyOntoTheBackground() throws {
        let white = folder.appending("white.jpg"), red = folder.appending("red.jpg")
        #expect(try yy(["image", "convert", try input(), white]).status == 0)
        #expect(try yy(["image", "convert", try input(), red, "--background", "ff0000"]).status == 0)
        let onWhite = try decoded(white).frame(at: 0)[100, 200], onRed = try decoded(red).frame(at: 0)[100, 200]
        #expect(onWhite.r > 245 && onWhite.g > 245 && onWhite.b > 245, "\(onWhite)")
        #expect(onRed.r > 240 && onRed.g < 15 && onRed.b < 15, "\(onRed)")
    }

    @Test func filtersAndGravityReachThePixels() throws {
        let east = folder.appending("east.png"), grey = folder.appending("grey.png")
        #expect(
            try yy([
                "image", "convert", try input(), east, "--width", "100", "--height", "100", "--fit", "cover",
                "--gravity", "east",
            ]).status == 0)
        #expect(try decoded(east).frame(at: 0)[50, 50] == RGBA(0, 0, 255))
        #expect(try yy(["image", "convert", try input(), grey, "--grayscale", "--blur", "1", "--flop"]).status == 0)
        let pixel = try decoded(grey).frame(at: 0)[100, 200]
        #expect(pixel.r == pixel.g && pixel.g == pixel.b && pixel.a == 255)
    }

    @Test func animationsKeepTheirFramesDurationsAndLoopWhenResized() throws {
        var encoder = ImageEncoder(type: .gif)
        encoder.loopCount = 2
        for (index, colour) in [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255)].enumerated() {
            encoder.addFrame(Bitmap(filledWith: colour, width: 80, height: 40, alphaMode: .straight), duration: 0.1 * Double(index + 1))
        }
        let input = folder.appending("anim.gif"), output = folder.appending("anim.webp")
        try encoder.encode().write(to: URL(fileURLWithPath: input))
        #expect(try yy(["image", "convert", input, output, "--width", "20", "--lossless"]).status == 0)
        let decoder = try decoded(output)
        #expect(decoder.frameCount == 3 && decoder.loopCount == 2)
        #expect((decoder.canvasWidth, decoder.canvasHeight) == (20, 10))
        #expect(decoder.frameInfos.map(\.duration) == [0.1, 0.2, 0.3])
        #expect(try decoder.frame(at: 1)[10, 5] == RGBA(0, 255, 0))
    }

    @Test(
        arguments: [
            (["--width", "0"], "--width"),
            (["--fit", "squash"], "--fit"),
            (["--gravity", "up"], "--gravity"),
            (["--gravity", "1.5,0"], "--gravity"),
            (["--kernel", "bicubic"], "--kernel"),
            (["--crop", "1,2,3"], "--crop"),
            (["--rotate", "45"], "--rotate"),
            (["--blur", "nan"], "--blur"),
            (["--sharpen", "5000"], "--sharpen"),
            (["--background", "red"], "--background"),
            (["--effort", "10"], "--effort"),
        ] as [([String], String)])
    func badValuesAreUsageErrorsNamingTheFlag(_ flags: [String], _ flag: String) throws {
        let result = try yy(["image", "convert", try input(), folder.appending("x.png")] + flags)
        #expect(result.status == 2)
        #expect(result.standardError.contains(flag), "\(result.standardError)")
    }

    @Test func exifIsKeptWithItsOrientationResetUnlessStripped() throws {
        // A 60×20 JPEG whose EXIF says "turn 90° clockwise", with an XMP packet.
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        tiff += [0, 0, 0, 0]
        var encoder = ImageEncoder(type: .jpeg)
        encoder.exif = Data(tiff)
        encoder.xmp = Data("<x:xmpmeta/>".utf8)
        encoder.addFrame(Bitmap(filledWith: RGBA(200, 30, 30), width: 60, height: 20))
        let input = folder.appending("turned.jpg")
        try encoder.encode().write(to: URL(fileURLWithPath: input))
        for (flags, size, orientation, hasXMP) in [
            ([String](), (20, 60), ImageOrientation.up, true),
            (["--no-auto-orient"], (60, 20), .right, true),
            (["--strip"], (20, 60), nil, false),
        ] as [([String], (Int, Int), ImageOrientation?, Bool)] {
            for type in ["png", "webp", "jpg"] {
                let output = folder.appending("out." + type)
                #expect(try yy(["image", "convert", input, output] + flags).status == 0)
                var raw = ImageDecoder.Options()
                raw.appliesOrientation = false
                let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: output)), options: raw)
                #expect((decoder.canvasWidth, decoder.canvasHeight) == size, "\(flags) \(type)")
                #expect(decoder.exif == nil ? orientation == nil : decoder.orientation == orientation, "\(flags) \(type)")
                #expect((decoder.xmp != nil) == hasXMP, "\(flags) \(type)")
            }
        }
    }

    @Test func aCropOutsideTheImageIsAUsageError() throws {
        let result = try yy(["image", "convert", try input(), folder.appending("x.png"), "--crop", "500,0,200,10"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("crop"))
    }
}

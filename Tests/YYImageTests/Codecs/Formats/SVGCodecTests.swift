import Foundation
import TestSupport
import Testing

@testable import YYImage

/// Small SVG documents the tests draw.
enum SVGDocuments {
    /// A `width` × `height` document (in pixels, or the units given) over a 4 × 2 `viewBox`: red
    /// on the left half, blue at half opacity on the right.
    static func halves(width: String = "40", height: String = "20", prolog: String = "") -> Data {
        Data(
            """
            \(prolog)<svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 4 2">
              <rect x="0" y="0" width="2" height="2" fill="#ff0000"/>
              <rect x="2" y="0" width="2" height="2" fill="blue" fill-opacity="0.5"/>
            </svg>
            """.utf8)
    }

    /// A document whose only content is `body`, 20 × 20.
    static func with(_ body: String, size: Int = 20) -> Data {
        Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(size)" height="\(size)">\(body)</svg>
            """.utf8)
    }
}

@Suite struct SVGCodecTests {
    let folder = TemporaryDirectory("svg")

    @Test(arguments: [
        "", "<?xml version=\"1.0\"?>\n", "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a comment -->\n",
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n",
    ])
    func documentsAreRecognisedPastTheirProlog(prolog: String) {
        #expect(ImageType(sniffing: SVGDocuments.halves(prolog: prolog)) == .svg)
    }

    @Test func markupWithoutAnSVGElementIsNotSVG() {
        #expect(ImageType(sniffing: Data("<html><body>svg</body></html>".utf8)) == nil)
        #expect(ImageType(sniffing: Data("<svgfoo/>".utf8)) == nil)
        #expect(ImageType(sniffing: Data("text <svg>".utf8)) == nil)
        #expect(ImageType(fileExtension: "SVG") == .svg)
        #expect(!ImageType.svg.isEncodable)
    }

    @Test func aDocumentWhoseTagComesLateWaitsForMoreBytes() throws {
        let comment = "<!--" + String(repeating: "x", count: 600) + "-->"
        let data = SVGDocuments.halves(prolog: comment)
        let decoder = ImageDecoder()
        #expect(try decoder.update(data: data.prefix(300), final: false) == false)
        #expect(decoder.type == nil)
        if ImageType.svg.isDecodable {
            #expect(try decoder.update(data: data, final: true))
            #expect(decoder.type == .svg)
        }
    }
}

/// SVG drawn by librsvg, against librsvg's own `rsvg-convert`.
@Suite(.enabled(if: ImageType.svg.isDecodable, "needs the LibRSVG trait (librsvg2-dev: run scripts/setup)"))
struct SVGDrawingTests {
    let folder = TemporaryDirectory("svg-drawing")

    @Test func theIntrinsicSizeComesFromWidthAndHeightThenTheViewBox() throws {
        #expect(try ImageDecoder(data: SVGDocuments.halves()).canvasWidth == 40)
        let inches = try ImageDecoder(data: SVGDocuments.halves(width: "1in", height: "0.5in"))
        #expect(inches.canvasWidth == 96 && inches.canvasHeight == 48)
        let viewBoxOnly = try ImageDecoder(data: SVGDocuments.halves(width: "100%", height: "100%"))
        #expect(viewBoxOnly.canvasWidth == 4 && viewBoxOnly.canvasHeight == 2)
        let none = try ImageDecoder(data: Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"5\" height=\"5\"/></svg>".utf8))
        #expect(none.canvasWidth == 300 && none.canvasHeight == 150)
    }

    @Test func pixelsMatchRsvgConvert() throws {
        let path = folder.appending("halves.svg")
        try SVGDocuments.halves().write(to: URL(fileURLWithPath: path))
        let png = folder.appending("halves.png")
        try #require(FormatReference.has("rsvg-convert"), "needs rsvg-convert (librsvg2-bin): run scripts/setup --reference")
        try FormatReference.run("rsvg-convert", [path, "-o", png])
        let ours = try ImageDecoder(data: SVGDocuments.halves()).frame(at: 0)
        let theirs = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: png))).frame(at: 0)
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        #expect(maxChannelDifference(ours, theirs) <= 1)
        #expect(ours[5, 5] == RGBA(255, 0, 0, 255))
        #expect(ours[30, 10] == RGBA(0, 0, 255, 128))
    }

    @Test func aScaledDocumentIsDrawnAtTheScaleNotEnlargedAfter() throws {
        var options = ImageDecoder.Options()
        options.vectorScale = 10
        let decoder = try ImageDecoder(data: SVGDocuments.halves(), options: options)
        #expect(decoder.canvasWidth == 400 && decoder.canvasHeight == 200)
        let frame = try decoder.frame(at: 0)
        // A drawing has a sharp edge where the halves meet; a 40-pixel bitmap enlarged ten times
        // would blend across several pixels.
        #expect(frame[199, 100] == RGBA(255, 0, 0, 255))
        #expect(frame[200, 100] == RGBA(0, 0, 255, 128))
    }

    @Test func theChainsResizeGivesTheScaleToDrawAt() {
        let chain = ProcessingChain().resized(Resize(width: 400, enlarge: true))
        #expect(chain.vectorScale(sourceWidth: 40, sourceHeight: 20) == 10)
        // Without enlarging, a drawing is never made larger than the document.
        #expect(ProcessingChain().resized(Resize(width: 400)).vectorScale(sourceWidth: 40, sourceHeight: 20) == 1)
        #expect(ProcessingChain().resized(Resize(width: 10)).vectorScale(sourceWidth: 40, sourceHeight: 20) == 0.25)
        #expect(ProcessingChain().blurred(sigma: 1).vectorScale(sourceWidth: 40, sourceHeight: 20) == nil)
    }

    @Test func aStyleSheetOverridesTheDocumentsPresentationAttributes() throws {
        var options = ImageDecoder.Options()
        options.svgStylesheet = "rect { fill: #00ff00 }"
        let frame = try ImageDecoder(data: SVGDocuments.halves(), options: options).frame(at: 0)
        #expect(frame[5, 5] == RGBA(0, 255, 0, 255))
        options.svgStylesheet = "rect { fill: "
        #expect(try ImageDecoder(data: SVGDocuments.halves(), options: options).frame(at: 0)[5, 5] == RGBA(255, 0, 0, 255))
    }

    @Test func aDocumentOverThePixelLimitIsRefusedBeforeDrawing() {
        var options = ImageDecoder.Options()
        options.maxPixelCount = 1_000_000
        #expect(throws: ImageError.tooManyPixels(width: 100_000, height: 100_000, limit: 1_000_000)) {
            try ImageDecoder(data: SVGDocuments.halves(width: "100000", height: "100000"), options: options)
        }
        options.vectorScale = 1e300
        #expect(throws: ImageError.self) { try ImageDecoder(data: SVGDocuments.halves(), options: options) }
        options.vectorScale = 300
        #expect(throws: ImageError.tooManyPixels(width: 12_000, height: 6_000, limit: 1_000_000)) {
            try ImageDecoder(data: SVGDocuments.halves(), options: options)
        }
    }

    @Test(arguments: [
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect", "<svg><g></svg>", "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg><svg>",
    ])
    func malformedDocumentsGiveATypedError(_ text: String) {
        #expect {
            try ImageDecoder(data: Data(text.utf8)).frame(at: 0)
        } throws: { error in
            guard case .malformed(.svg, let reason)? = error as? ImageError else { return false }
            return !reason.isEmpty
        }
    }

    @Test func entityExpansionIsBounded() throws {
        let started = ContinuousClock.now
        // librsvg's XML limits stop the expansion: the document is refused or drawn without it.
        _ = try? ImageDecoder(data: HostileSVG.billionLaughs()).frame(at: 0)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aFiftyMegabytePathIsRefusedOrDrawnWithoutHanging() throws {
        var path = "M0 0"
        path.reserveCapacity(50 << 20)
        while path.utf8.count < 50 << 20 { path += " L1 1 L2 0 L3 1 L4 0 L5 1 L6 0 L7 1 L8 0 L9 1" }
        let document = SVGDocuments.with("<path d=\"\(path)\" stroke=\"black\"/>")
        let started = ContinuousClock.now
        // libxml2 refuses an attribute this long unless told otherwise (librsvg keeps its limits);
        // whichever way it goes, it answers with a typed error or a picture.
        do {
            _ = try ImageDecoder(data: document).frame(at: 0)
        } catch {
            guard case .malformed(.svg, _) = error else { throw error }
        }
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aFileReferenceIsNotRead() throws {
        let png = folder.appending("red.png")
        try ImageEncoder.encode(Bitmap(width: 20, height: 20, pixels: [UInt8](repeating: 255, count: 1_600))!, as: .png)
            .write(to: URL(fileURLWithPath: png))
        for href in ["file://\(png)", png, "red.png"] {
            let document = SVGDocuments.with("<image href=\"\(href)\" width=\"20\" height=\"20\"/>")
            let frame = try ImageDecoder(data: document).frame(at: 0)
            #expect(frame[10, 10].a == 0, "drew \(href)")
        }
        // A data: URL is the one kind that resolves.
        let encoded = try ImageEncoder.encode(Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))!, as: .png)
        let inline = SVGDocuments.with("<image href=\"data:image/png;base64,\(encoded.base64EncodedString())\" width=\"20\" height=\"20\"/>")
        #expect(try ImageDecoder(data: inline).frame(at: 0)[10, 10].a == 255)
    }

    @Test func independentDecodersOnManyThreadsAtOnceAllSucceed() throws {
        let data = SVGDocuments.halves()
        let expected = try ImageDecoder(data: data).frame(at: 0)
        #expect(failuresOnManyThreads(16, expecting: expected) { try ImageDecoder(data: data).frame(at: 0) } == [])
    }
}

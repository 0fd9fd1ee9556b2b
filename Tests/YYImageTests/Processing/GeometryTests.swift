import TestSupport
import Testing

@testable import YYImage

@Suite struct GeometryTests {
    /// source, box (nil = follows the aspect ratio), fit, enlarge → the canvas, by sharp's rules.
    @Test(
        arguments: [
            (600, 400, 300, 300, FitMode.inside, false, 300, 200),
            (600, 400, 300, nil, .inside, false, 300, 200),
            (600, 400, nil, 100, .inside, false, 150, 100),
            (600, 400, 300, 300, .cover, false, 300, 300),
            (600, 400, 300, 300, .contain, false, 300, 300),
            (600, 400, 300, 100, .fill, false, 300, 100),
            (600, 400, 300, 300, .outside, false, 450, 300),
            (1, 1000, 10, 10, .inside, false, 1, 10),
            (1000, 1, 10, 10, .inside, false, 10, 1),
            (1000, 1, 10, 10, .cover, false, 10, 1),
            (1, 1, 5, 5, .contain, false, 5, 5),
            (3, 2, 2, 2, .inside, false, 2, 1),
            (333, 777, 100, 100, .inside, false, 43, 100),
            (200, 100, 400, 400, .inside, false, 200, 100),
            (200, 100, 400, 400, .inside, true, 400, 200),
            (200, 100, 400, 400, .cover, false, 200, 100),
            (200, 100, 400, 400, .cover, true, 400, 400),
            (200, 100, 400, 400, .contain, false, 400, 400),
            (200, 100, 400, 50, .fill, false, 200, 50),
            (200, 100, 400, 50, .fill, true, 400, 50),
            (100_000, 10, 100, 100, .inside, false, 100, 1),
        ] as [(Int, Int, Int?, Int?, FitMode, Bool, Int, Int)])
    func outputSizesFollowSharpsRules(
        _ w: Int, _ h: Int, _ boxW: Int?, _ boxH: Int?, _ fit: FitMode, _ enlarge: Bool,
        _ expectedW: Int, _ expectedH: Int
    ) throws {
        let resize = Resize(width: boxW, height: boxH, fit: fit, enlarge: enlarge)
        let size = try resize.outputSize(sourceWidth: w, sourceHeight: h)
        #expect(size.width == expectedW && size.height == expectedH, "\(w)x\(h) \(fit) → \(size)")
        if w * h <= 1_000_000 {
            let out = try ProcessingChain().resized(resize).apply(to: Bitmap(width: w, height: h))
            #expect((out.width, out.height) == (expectedW, expectedH))
        }
    }

    /// A 300×100 image with a red block at the left edge, a blue one at the right, each 20 px.
    static let banded: Bitmap = {
        var bitmap = Bitmap(filledWith: RGBA(255, 255, 255), width: 300, height: 100, alphaMode: .straight)
        for y in 0..<100 {
            for x in 0..<20 { bitmap[x, y] = RGBA(255, 0, 0) }
            for x in 280..<300 { bitmap[x, y] = RGBA(0, 0, 255) }
        }
        return bitmap
    }()

    @Test(arguments: [
        (Gravity.west, RGBA(255, 0, 0), RGBA(255, 255, 255)),
        (.east, RGBA(255, 255, 255), RGBA(0, 0, 255)),
        (.center, RGBA(255, 255, 255), RGBA(255, 255, 255)),
        (.northWest, RGBA(255, 0, 0), RGBA(255, 255, 255)),
        (.southEast, RGBA(255, 255, 255), RGBA(0, 0, 255)),
        (.focalPoint(x: 0.9, y: 0.5), RGBA(255, 255, 255), RGBA(0, 0, 255)),
        (.focalPoint(x: 0.02, y: 0.5), RGBA(255, 0, 0), RGBA(255, 255, 255)),
    ])
    func coverKeepsTheSideTheGravityNames(_ gravity: Gravity, _ left: RGBA, _ right: RGBA) throws {
        let out = try ProcessingChain().resized(Resize(width: 100, height: 100, fit: .cover, gravity: gravity)).apply(to: Self.banded)
        #expect((out.width, out.height) == (100, 100))
        #expect(out[2, 50] == left, "\(gravity) left edge")
        #expect(out[97, 50] == right, "\(gravity) right edge")
    }

    @Test func containPadsWithTheBackgroundAtTheGravity() throws {
        let green = RGBA(0, 255, 0)
        let north = try ProcessingChain()
            .resized(Resize(width: 300, height: 300, fit: .contain, gravity: .north, background: green))
            .apply(to: Self.banded)
        #expect((north.width, north.height) == (300, 300))
        #expect(north[150, 50] == RGBA(255, 255, 255))
        #expect(north[150, 250] == green)
        let south = try ProcessingChain().resized(Resize(width: 300, height: 300, fit: .contain, gravity: .south, background: green))
            .apply(to: Self.banded)
        #expect(south[150, 50] == green && south[150, 250] == RGBA(255, 255, 255))
    }

    @Test(arguments: [Gravity.entropy, .attention])
    func aSmartCropKeepsADetailedObjectOffCentre(_ gravity: Gravity) throws {
        var generator = SplitMix64(seed: 11)
        var image = Bitmap(filledWith: RGBA(120, 130, 140), width: 800, height: 400, alphaMode: .straight)
        // A busy, colourful object at x 560...680.
        for y in 150..<270 {
            for x in 560..<680 {
                image[x, y] = RGBA(
                    UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                    UInt8.random(in: 0...255, using: &generator))
            }
        }
        let origin = SmartCrop.origin(in: image, width: 400, height: 400, gravity: gravity)
        #expect(origin.x <= 560 && origin.x + 400 >= 680, "\(gravity): window at \(origin.x)")
        let out = try ProcessingChain().resized(Resize(width: 200, height: 200, fit: .cover, gravity: gravity)).apply(to: image)
        // The object's half-size copy lies in the window, so the output is far from flat.
        let distinct = Set((0..<200).flatMap { y in (0..<200).map { x in out[x, y] } })
        #expect(distinct.count > 1000, "\(gravity): \(distinct.count) colours")
    }

    @Test func rotationsFlipsAndFlopsMoveTheCorners() {
        var image = Bitmap(width: 3, height: 2)
        image[0, 0] = RGBA(1, 0, 0)
        image[2, 1] = RGBA(2, 0, 0)
        let turned = image.rotated(.clockwise90)
        #expect((turned.width, turned.height) == (2, 3))
        #expect(turned[1, 0] == RGBA(1, 0, 0) && turned[0, 2] == RGBA(2, 0, 0))
        #expect(image.rotated(.half)[2, 1] == RGBA(1, 0, 0))
        #expect(image.rotated(.clockwise270)[0, 2] == RGBA(1, 0, 0))
        #expect(image.flipped()[0, 1] == RGBA(1, 0, 0))
        #expect(image.flopped()[2, 0] == RGBA(1, 0, 0))
    }

    @Test func trimRemovesAUniformBorderAndExtendAddsOne() throws {
        var image = Bitmap(filledWith: RGBA(9, 9, 9), width: 20, height: 10, alphaMode: .straight)
        for y in 3..<6 { for x in 4..<15 { image[x, y] = RGBA(200, 50, 50) } }
        let trimmed = image.trimmed()
        #expect((trimmed.width, trimmed.height) == (11, 3))
        let extended = try trimmed.extended(top: 1, left: 2, bottom: 3, right: 4, background: RGBA(0, 0, 255))
        #expect((extended.width, extended.height) == (17, 7))
        #expect(extended[0, 0] == RGBA(0, 0, 255) && extended[2, 1] == RGBA(200, 50, 50))
    }

    @Test func trimTakesABackgroundAndCutsOppositeSidesEquallyWhenAsked() {
        var image = Bitmap(filledWith: RGBA(9, 9, 9), width: 20, height: 10, alphaMode: .straight)
        for y in 3..<6 { for x in 4..<15 { image[x, y] = RGBA(200, 50, 50) } }
        // Left 4 and right 5 columns, top 3 and bottom 4 rows are background.
        #expect(image.trimmed(background: RGBA(9, 9, 9), equalHorizontal: true).width == 12)
        #expect(image.trimmed(equalVertical: true).height == 4)
        // A background that is not the border's: nothing to cut.
        #expect(image.trimmed(background: RGBA(0, 255, 0)).width == 20)
        #expect(RGBA(hex: "#f0a") == RGBA(255, 0, 170) && RGBA(hex: "ff") == nil)
    }

    @Test func hostileParametersGiveTypedErrors() {
        let image = Bitmap(width: 10, height: 10)
        func fails(_ step: ProcessingStep, _ label: String) {
            #expect(throws: ImageError.self, "\(label)") { try ProcessingChain([step]).apply(to: image) }
        }
        fails(.resize(Resize(width: 0)), "width 0")
        fails(.resize(Resize(width: 1_000_000_000)), "width 10^9")
        fails(.resize(Resize(width: 1 << 24, height: 1 << 24, fit: .fill, enlarge: true)), "2^48 pixels")
        fails(.resize(Resize()), "no side")
        fails(.resize(Resize(width: 5, gravity: .focalPoint(x: .nan, y: 0))), "NaN focal point")
        fails(.blur(sigma: .nan), "NaN sigma")
        fails(.blur(sigma: 1e9), "huge sigma")
        fails(.sharpen(sigma: -1), "negative sigma")
        fails(.crop(PixelRect(x: 5, y: 5, width: 10, height: 1)), "crop past the edge")
        fails(.crop(PixelRect(x: -1, y: 0, width: 2, height: 2)), "crop before the edge")
        fails(.crop(PixelRect(x: 0, y: 0, width: 0, height: 2)), "empty crop")
        fails(.extend(top: 0, left: 0, bottom: 100_000, right: 100_000, background: RGBA(0, 0, 0)), "huge extend")
        fails(.extend(top: -1, left: 0, bottom: 0, right: 0, background: RGBA(0, 0, 0)), "negative extend")
        fails(.roundCorners(radius: .infinity), "infinite radius")
        fails(.trim(threshold: 300), "trim threshold")
        #expect(throws: ImageError.tooManyPixels(width: 1 << 24, height: 1 << 24, limit: ProcessingLimits.maxOutputPixels)) {
            try ProcessingChain().resized(Resize(width: 1 << 24, height: 1 << 24, fit: .fill, enlarge: true)).apply(to: image)
        }
    }

    @Test func theIdentifierNamesEveryParameterAndIsStable() {
        let a = ProcessingChain().resized(Resize(width: 400, height: 300, fit: .cover, gravity: .attention)).sharpened(sigma: 0.5)
        let b = ProcessingChain().resized(Resize(width: 400, height: 300, fit: .cover, gravity: .attention)).sharpened(sigma: 0.5)
        let c = ProcessingChain().resized(Resize(width: 400, height: 300, fit: .cover, gravity: .entropy)).sharpened(sigma: 0.5)
        #expect(a.identifier == b.identifier)
        #expect(a.identifier != c.identifier)
        #expect(a.identifier == "resize(w=400,h=300,fit=cover,g=attention,k=lanczos3,gap=2.0)|sharpen(0.5)")
    }
}

@Suite struct AnimationProcessingTests {
    @Test func everyFrameIsProcessedAndTheTimingAndLoopCountStay() throws {
        var encoder = ImageEncoder(type: .webp)
        encoder.lossless = true
        encoder.loopCount = 3
        let colours = [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255)]
        for (index, colour) in colours.enumerated() {
            encoder.addFrame(Bitmap(filledWith: colour, width: 60, height: 30), duration: 0.1 * Double(index + 1))
        }
        let image = try Image(data: encoder.encode())
        let chain = ProcessingChain().resized(Resize(width: 20, height: 20, fit: .cover)).rotated(.clockwise90)
        let processed = try chain.apply(to: image)
        #expect(processed.frameCount == 3 && processed.loopCount == 3)
        #expect((processed.pixelWidth, processed.pixelHeight) == (20, 20))
        for (index, colour) in colours.enumerated() {
            #expect(try processed.frame(at: index)[10, 10] == colour)
            #expect(abs(processed.duration(at: index) - image.duration(at: index)) < 1e-9)
        }
        processed.unloadFrames()  // frames made in memory have nothing to be decoded again from
        #expect(try processed.frame(at: 2)[10, 10] == colours[2])
    }
}

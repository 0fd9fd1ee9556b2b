import Foundation
import TestSupport
import TestTraits
import Testing
import YYImage

@testable import YYImageService

/// imgproxy's geometry and response options, each asked in process of a service whose sources
/// are pictures the test draws under its local root, with the result's size and pixels checked.
@Suite(.hangLimit) struct ProcessingOptionTests {
    static let red = RGBA(255, 0, 0), green = RGBA(0, 255, 0), blue = RGBA(0, 0, 255), white = RGBA(255, 255, 255)

    /// 64 × 32: red top-left, green top-right, blue bottom-left, white bottom-right.
    static func quadrants() -> Bitmap {
        var bitmap = Bitmap(width: 64, height: 32)
        for y in 0..<32 {
            for x in 0..<64 { bitmap[x, y] = y < 16 ? (x < 32 ? red : green) : (x < 32 ? blue : white) }
        }
        return bitmap
    }

    /// 40 × 20 white with a 10 × 6 red block at (5, 4).
    static func block() -> Bitmap {
        var bitmap = Bitmap(filledWith: white, width: 40, height: 20)
        for y in 4..<10 { for x in 5..<15 { bitmap[x, y] = red } }
        return bitmap
    }

    /// `body` with a service whose local root holds quadrants.png, photo.jpg (640 × 480),
    /// gradient.png (64 × 64), block.png, notes.txt, anim.gif (3 frames of 60 × 40) and
    /// "my photo.png" (the quadrants), and `files` by name, configured by `configure`.
    func withService(
        files: [String: Data] = [:], _ configure: (inout ImageServiceConfiguration) -> Void = { _ in },
        _ body: (ServiceHarness) async throws -> Void
    ) async throws {
        let root = TemporaryDirectory("serve-options")
        for (name, data) in files { try data.write(to: URL(fileURLWithPath: root.appending(name))) }
        let quadrants = try ImageEncoder.encode(Self.quadrants(), as: .png)
        try quadrants.write(to: URL(fileURLWithPath: root.appending("quadrants.png")))
        try quadrants.write(to: URL(fileURLWithPath: root.appending("my photo.png")))
        try Data(TestImages.jpeg()).write(to: URL(fileURLWithPath: root.appending("photo.jpg")))
        try ImageEncoder.encode(TestImages.gradient(width: 64, height: 64), as: .png)
            .write(to: URL(fileURLWithPath: root.appending("gradient.png")))
        try ImageEncoder.encode(Self.block(), as: .png).write(to: URL(fileURLWithPath: root.appending("block.png")))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: root.appending("notes.txt")))
        try Data(TestImages.animatedGIF()).write(to: URL(fileURLWithPath: root.appending("anim.gif")))
        let service = try await ServiceHarness.inProcess {
            $0.localRoot = root.path
            configure(&$0)
        }
        do { try await body(service) } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    /// The first frame of the answer to `/insecure/options/plain/local:///source`.
    func render(_ service: ServiceHarness, _ options: String, _ source: String) async throws -> Bitmap {
        let reply = try await service.get("/insecure/\(options)/plain/local:///\(source)")
        try #require(reply.status == 200, "\(options): \(reply.status) \(reply.errorMessage ?? "")")
        return try reply.image().frame(at: 0)
    }

    /// Whether `pixel` lies within `tolerance` levels of `colour` on every channel.
    func near(_ pixel: RGBA, _ colour: RGBA, tolerance: Int = 2) -> Bool {
        abs(Int(pixel.r) - Int(colour.r)) <= tolerance && abs(Int(pixel.g) - Int(colour.g)) <= tolerance
            && abs(Int(pixel.b) - Int(colour.b)) <= tolerance && abs(Int(pixel.a) - Int(colour.a)) <= tolerance
    }

    @Test func flipMirrorsLeftToRightAndTopToBottom() async throws {
        try await withService { service in
            let horizontal = try await render(service, "fl:1/f:png", "quadrants.png")
            #expect(near(horizontal[2, 2], Self.green) && near(horizontal[61, 2], Self.red) && near(horizontal[2, 29], Self.white))
            let vertical = try await render(service, "fl:0:1/f:png", "quadrants.png")
            #expect(near(vertical[2, 2], Self.blue) && near(vertical[61, 29], Self.green))
            let both = try await render(service, "flip:t:t/f:png", "quadrants.png")
            #expect(near(both[2, 2], Self.white) && near(both[61, 29], Self.red))
            // After the turn: turned a quarter, red is top-right; mirrored, it is top-left again.
            let turned = try await render(service, "rot:90/fl:1/f:png", "quadrants.png")
            #expect(turned.width == 32 && turned.height == 64 && near(turned[2, 2], Self.red))
        }
    }

    @Test func paddingAddsCSSOrderedSidesScaledByDPRInTheBackground() async throws {
        try await withService { service in
            let all = try await render(service, "pd:10/bg:0000ff/f:png", "quadrants.png")
            #expect(all.width == 84 && all.height == 52)
            #expect(near(all[9, 9], Self.blue) && near(all[10, 10], Self.red) && near(all[83, 51], Self.blue) && near(all[73, 41], Self.white))
            // top 1, right 2 (and left), bottom 3.
            let three = try await render(service, "pd:1:2:3/f:png", "quadrants.png")
            #expect(three.width == 68 && three.height == 36)
            #expect(
                three[0, 0].a == 0 && three[1, 0].a == 0 && near(three[2, 1], Self.red) && three[65, 33].a == 0 && near(three[65, 32], Self.white))
            let four = try await render(service, "padding:1:2:3:4/f:png", "quadrants.png")
            #expect(four.width == 70 && four.height == 36 && near(four[4, 1], Self.red) && four[3, 1].a == 0)
            // `dpr` scales the padding (and here nothing else: there is no box).
            let scaled = try await render(service, "pd:5/dpr:2/bg:0000ff/f:png", "quadrants.png")
            #expect(scaled.width == 84 && scaled.height == 52 && near(scaled[9, 9], Self.blue) && near(scaled[10, 10], Self.red))
            // Padding follows every other step: the box is filled first, then padded.
            let afterResize = try await render(service, "rs:fill:20:20/pd:2/f:png", "photo.jpg")
            #expect(afterResize.width == 24 && afterResize.height == 24)
        }
    }

    @Test func zoomMultipliesTheScaleOnEachAxis() async throws {
        try await withService { service in
            let cases: [(String, Int, Int)] = [
                ("rs:fit:100:100/z:2", 200, 150), ("z:0.5", 320, 240), ("w:100/z:2:1", 200, 75), ("rs:fill:100:100/z:1.5", 150, 150),
                // The box is 800 wide: 1.25 times the source, halved, so no enlarging is needed.
                ("w:800/z:0.5", 400, 300),
                // Without enlarge, a zoom that would grow the source keeps it at its size.
                ("z:3", 640, 480), ("z:3/el:1", 1920, 1440), ("w:100/z:2/dpr:2", 400, 300),
            ]
            for (options, width, height) in cases {
                let image = try await render(service, options + "/f:png", "photo.jpg")
                #expect(image.width == width && image.height == height, "\(options): \(image.width)x\(image.height)")
            }
        }
    }

    @Test func minimumSidesRaiseTheScaleAndTheBoxStillCrops() async throws {
        try await withService { service in
            let cases: [(String, Int, Int)] = [
                ("w:100/mh:150", 100, 150), ("mw:800", 800, 600), ("w:100/mw:50", 100, 75), ("rs:fit:100:100/min-height:90", 100, 90),
                ("h:50/mw:200", 200, 50), ("mw:100/dpr:2", 640, 480),
            ]
            for (options, width, height) in cases {
                let image = try await render(service, options + "/f:png", "photo.jpg")
                #expect(image.width == width && image.height == height, "\(options): \(image.width)x\(image.height)")
            }
        }
    }

    @Test func extendAspectRatioPadsToTheBoxShapeAtItsGravity() async throws {
        try await withService { service in
            let centred = try await render(service, "rs:fit:100:100/exar:1/bg:ff0000/f:png", "photo.jpg")
            #expect(centred.width == 100 && centred.height == 100)
            #expect(near(centred[50, 5], Self.red, tolerance: 0) && near(centred[50, 95], Self.red, tolerance: 0) && !near(centred[50, 50], Self.red))
            let north = try await render(service, "rs:fit:100:100/extend_aspect_ratio:1:no/bg:ff0000/f:png", "photo.jpg")
            #expect(!near(north[50, 5], Self.red) && near(north[50, 95], Self.red, tolerance: 0))
            // Already of the box's shape, or with a side that follows the aspect ratio: nothing to do.
            #expect(try await render(service, "rs:fit:40:30/exar:1/f:png", "photo.jpg").height == 30)
            #expect(try await render(service, "w:100/exar:1/f:png", "photo.jpg").height == 75)
        }
    }

    @Test func gravityOffsetsMoveTheWindowAwayFromItsEdge() async throws {
        try await withService { service in
            // A crop's offsets are in source pixels; 0.5 is half the extent.
            let green = try await render(service, "c:16:16:nowe:32:0/f:png", "quadrants.png")
            #expect(green.width == 16 && near(green[0, 0], Self.green) && near(green[15, 15], Self.green))
            let blue = try await render(service, "c:16:16:soea:0.5:0/f:png", "quadrants.png")
            #expect(near(blue[0, 0], Self.blue) && near(blue[15, 15], Self.blue))
            // A fill's window: west, then 32 pixels to the right.
            #expect(near(try await render(service, "rs:fill:32:32/g:we/f:png", "quadrants.png")[2, 2], Self.red))
            #expect(near(try await render(service, "rs:fill:32:32/g:we:32/f:png", "quadrants.png")[2, 2], Self.green))
            // An extend's: north, 10 pixels down.
            let extended = try await render(service, "rs:fit:64:64:0:1:no:0:10/bg:ffff00/f:png", "quadrants.png")
            let yellow = RGBA(255, 255, 0)
            #expect(
                near(extended[2, 5], yellow) && near(extended[2, 12], Self.red) && near(extended[2, 41], Self.blue) && near(extended[2, 44], yellow))
        }
    }

    @Test func aFillsGravityMeansTheTurnedAndMirroredResult() async throws {
        try await withService { service in
            // Turned clockwise, the quadrants read blue, red / white, green from the top.
            let south = try await render(service, "rot:90/rs:fill:32:32/g:so/f:png", "quadrants.png")
            #expect(south.width == 32 && south.height == 32 && near(south[2, 2], Self.white) && near(south[29, 2], Self.green))
            // Mirrored, green is on the left.
            #expect(near(try await render(service, "fl:1/rs:fill:32:32/g:we/f:png", "quadrants.png")[2, 2], Self.green))
        }
    }

    @Test func trimTakesAColourAndCanCutOppositeSidesEqually() async throws {
        try await withService { service in
            let sizes: [(String, Int, Int)] = [
                ("t:10", 10, 6), ("t:10:fff", 10, 6), ("t:10:ffffff:1", 30, 6), ("t:10:fff:0:1", 10, 12), ("t:10:fff:t:t", 30, 12),
                // Red is not the border's colour: nothing is cut.
                ("t:10:ff0000", 40, 20),
            ]
            for (options, width, height) in sizes {
                let image = try await render(service, options + "/f:png", "block.png")
                #expect(image.width == width && image.height == height, "\(options): \(image.width)x\(image.height)")
            }
            #expect(near(try await render(service, "t:10:fff/f:png", "block.png")[0, 0], Self.red))
        }
    }

    @Test func pixelateMakesUniformBlocksOfTheMeanColour() async throws {
        try await withService { service in
            let source = TestImages.gradient(width: 64, height: 64)
            let image = try await render(service, "pix:8/f:png", "gradient.png")
            #expect(image.width == 64 && image.height == 64)
            for (bx, by) in [(0, 0), (3, 5), (7, 7)] {
                let corner = image[bx * 8, by * 8]
                var sums = (0, 0, 0)
                for y in by * 8..<by * 8 + 8 {
                    for x in bx * 8..<bx * 8 + 8 {
                        #expect(image[x, y] == corner, "block \(bx),\(by) is not uniform at \(x),\(y)")
                        let pixel = source[x, y]
                        sums = (sums.0 + Int(pixel.r), sums.1 + Int(pixel.g), sums.2 + Int(pixel.b))
                    }
                }
                #expect(near(corner, RGBA(UInt8((sums.0 + 32) / 64), UInt8((sums.1 + 32) / 64), UInt8((sums.2 + 32) / 64)), tolerance: 1))
            }
            #expect(image[0, 0] != image[8, 0])
        }
    }

    @Test func skipProcessingServesAListedFormatAsItCameUnlessAnotherIsNamed() async throws {
        try await withService { service in
            let file = try ImageEncoder.encode(Self.quadrants(), as: .png)
            for options in ["skp:png/w:10", "skip_processing:jpg:png/w:10/f:png"] {
                let reply = try await service.get("/insecure/\(options)/plain/local:///quadrants.png")
                #expect(reply.status == 200 && reply.body == file && reply.header("Content-Type") == "image/png", "\(options)")
            }
            for options in ["skp:png/w:10/f:webp", "skp:jpg/w:10"] {
                #expect(try await render(service, options, "quadrants.png").width == 10, "\(options)")
            }
            #expect(try await service.get("/insecure/skp:nope/plain/local:///quadrants.png").status == 400)
        }
    }

    @Test func rawServesTheSourceBytesThroughTheSameGuard() async throws {
        try await withService { service in
            let file = try ImageEncoder.encode(Self.quadrants(), as: .png)
            let image = try await service.get("/insecure/raw:1/w:10/f:webp/plain/local:///quadrants.png")
            #expect(image.status == 200 && image.body == file && image.header("Content-Type") == "image/png")
            #expect(image.header("Content-Disposition") == #"inline; filename="quadrants.png""#)
            let text = try await service.get("/insecure/raw:1/plain/local:///notes.txt")
            #expect(text.status == 200 && text.body == Data("not an image".utf8) && text.header("Content-Type") == "application/octet-stream")
            #expect(text.header("X-Content-Type-Options") == "nosniff")
            #expect(try await service.get("/insecure/raw:1/plain/local:///missing.png").status == 404)
            #expect(try await service.get("/insecure/raw:1/plain/local:///../etc/passwd").status == 404)
        }
    }

    @Test func securityOptionsAre403UnlessAllowedAndThenLowerTheLimits() async throws {
        try await withService { service in
            let refused = try await service.get("/insecure/msr:1/w:10/plain/local:///photo.jpg")
            #expect(refused.status == 403 && refused.errorMessage == "security options are not allowed")
        }
        try await withService({ $0.allowsSecurityOptions = true }) { service in
            let cases: [(String, String, Int)] = [
                ("msr:1/w:10", "photo.jpg", 200), ("max_src_resolution:0.1/w:10", "photo.jpg", 422),
                ("msfs:100000/w:10", "photo.jpg", 200), ("max_src_file_size:100/w:10", "photo.jpg", 422),
                ("mrd:50/w:40", "photo.jpg", 200), ("max_result_dimension:50/w:100", "photo.jpg", 422),
                ("maf:3/f:webp", "anim.gif", 200), ("max_animation_frames:2/f:webp", "anim.gif", 422),
                ("mafr:0.01/f:webp", "anim.gif", 200), ("max_animation_frame_resolution:0.001/f:webp", "anim.gif", 422),
                // A still is limited by its resolution alone.
                ("mafr:0.001/w:10", "photo.jpg", 200),
            ]
            for (options, source, status) in cases {
                let reply = try await service.get("/insecure/\(options)/plain/local:///\(source)")
                #expect(reply.status == status, "\(options): \(reply.status) \(reply.errorMessage ?? "")")
            }
        }
    }

    @Test func expiresRefusesAPastTimeWith404() async throws {
        try await withService { service in
            let past = try await service.get("/insecure/exp:1/w:10/plain/local:///photo.jpg")
            #expect(past.status == 404 && past.errorMessage == "the URL has expired")
            #expect(try await service.get("/insecure/exp:4102444800/w:10/plain/local:///photo.jpg").status == 200)
            #expect(try await service.get("/insecure/expires:0/w:10/plain/local:///photo.jpg").status == 200)
            #expect(try await service.get("/insecure/exp:soon/w:10/plain/local:///photo.jpg").status == 400)
        }
    }

    @Test func contentDispositionNamesTheFileInlineOrAsAnAttachment() async throws {
        try await withService { service in
            let plain = try await service.get("/insecure/w:10/plain/local:///photo.jpg")
            #expect(plain.header("Content-Disposition") == #"inline; filename="photo.jpg""#)
            let converted = try await service.get("/insecure/w:10/plain/local:///photo.jpg@webp")
            #expect(converted.header("Content-Disposition") == #"inline; filename="photo.webp""#)
            let spaced = try await service.get("/insecure/w:10/f:png/plain/local:///my%20photo.png")
            #expect(spaced.header("Content-Disposition") == #"inline; filename="my photo.png""#)
            let named = try await service.get("/insecure/fn:holiday%20pic/att:1/w:10/plain/local:///photo.jpg")
            #expect(named.header("Content-Disposition") == #"attachment; filename="holiday pic.jpg""#)
            let encoded = [UInt8]("résumé \"1\"".utf8).base64URLEncoded
            let unicode = try await service.get("/insecure/filename:\(encoded):1/return_attachment:0/w:10/f:png/plain/local:///photo.jpg")
            #expect(
                unicode.header("Content-Disposition")
                    == #"inline; filename="r_sum_ _1_.png"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%221%22.png"#)
            #expect(try await service.get("/insecure/fn:%00x/w:10/plain/local:///photo.jpg").status == 400)
            #expect(try await service.get("/insecure/fn:***:1/w:10/plain/local:///photo.jpg").status == 400)
        }
    }
}

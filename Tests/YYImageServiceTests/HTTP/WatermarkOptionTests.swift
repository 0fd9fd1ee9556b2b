import Foundation
import TestSupport
import Testing
import YYImage

@testable import YYImageService

/// imgproxy's `watermark` option on pictures the tests draw: positions and offsets, tiling,
/// scale, opacity (against Pillow's `alpha_composite`), animations, and the image's sources.
extension ProcessingOptionTests {
    /// 8 × 4, opaque blue.
    static let mark = Bitmap(filledWith: RGBA(0, 0, 255), width: 8, height: 4, alphaMode: .straight)

    /// Whether the pixels of `bitmap` in `rect` are blue, and those just outside each side are not.
    private func isMarked(_ bitmap: Bitmap, x: Int, y: Int, width: Int, height: Int) -> Bool {
        let blue = RGBA(0, 0, 255)
        let inside = [(x, y), (x + width - 1, y), (x, y + height - 1), (x + width - 1, y + height - 1)]
        let outside = [(x - 1, y), (x + width, y), (x, y - 1), (x, y + height)].filter {
            $0.0 >= 0 && $0.0 < bitmap.width && $0.1 >= 0 && $0.1 < bitmap.height
        }
        return inside.allSatisfy { near(bitmap[$0.0, $0.1], blue) } && !outside.contains { near(bitmap[$0.0, $0.1], blue, tolerance: 40) }
    }

    private func withWatermark(_ mark: Bitmap = mark, opacity: Double = 1, _ body: (ServiceHarness) async throws -> Void) async throws {
        let png = try ImageEncoder.encode(mark, as: .png)
        try await withService(
            {
                $0.watermark = .data(png)
                $0.watermarkOpacity = opacity
            }, body)
    }

    /// Renders gradient.png (64 × 64) with each case's options and checks where the mark lands.
    private func expectMarks(_ service: ServiceHarness, _ cases: [(options: String, x: Int, y: Int, width: Int, height: Int)]) async throws {
        for c in cases {
            let result = try await render(service, c.options + "/f:png", "gradient.png")
            #expect(isMarked(result, x: c.x, y: c.y, width: c.width, height: c.height), "\(c.options)")
        }
    }

    @Test func watermarkSitsAtItsPositionMovedInwardByTheOffsets() async throws {
        try await withWatermark { service in
            try await expectMarks(
                service,
                [
                    // South-east, 4 and 2 pixels in from the right and bottom edges.
                    ("wm:1:soea:4:2", 52, 58, 8, 4),
                    // The centre rounds half a pixel to even, as imgproxy's: (64 - 8 + 1) / 2 = 28.5 -> 28.
                    ("watermark:1:ce", 28, 30, 8, 4),
                    // Absolute offsets are times dpr; fractions are of the result's side.
                    ("dpr:2/wm:1:nowe:3:1", 6, 2, 8, 4),
                    ("wm:1:nowe:0.25:0.5", 16, 32, 8, 4),
                ])
            // Offsets past the edge leave a pixel of the watermark on the result.
            let pushed = try await render(service, "wm:1:we:-500/f:png", "gradient.png")
            #expect(near(pushed[0, 31], RGBA(0, 0, 255)) && !near(pushed[1, 31], RGBA(0, 0, 255), tolerance: 40))
        }
    }

    @Test func tiledWatermarkRepeatsFromACentredCopyWithTheOffsetsAsSpacing() async throws {
        try await withWatermark { service in
            // Tiles of 12 × 6 (8 × 4 and the spacing, split either side): 7 across and 11 down
            // (odd counts), so the middle copy's mark covers 28..<36 × 30..<34, centred on 32.
            let tiled = try await render(service, "wm:1:re:4:2/f:png", "gradient.png")
            #expect(isMarked(tiled, x: 28, y: 30, width: 8, height: 4))
            #expect(isMarked(tiled, x: 4, y: 0, width: 8, height: 4))
            #expect(isMarked(tiled, x: 52, y: 60, width: 8, height: 4))
            // Without spacing the copies touch: every pixel is the watermark.
            let covered = try await render(service, "wm:1:re/f:png", "gradient.png")
            #expect((0..<64).allSatisfy { near(covered[$0, $0], RGBA(0, 0, 255)) })
        }
    }

    @Test func watermarkScaleFitsItInTheResultsSidesTimesTheScale() async throws {
        try await withWatermark { service in
            // A 32 × 32 box takes the 8 × 4 mark to 32 × 16, centred at (16, 24); scale 0 keeps its size.
            try await expectMarks(service, [("wm:1:ce:0:0:0.5", 16, 24, 32, 16), ("wm:1:ce:0:0:0", 28, 30, 8, 4)])
        }
    }

    @Test(.enabled(if: PillowReference.isAvailable, Comment(rawValue: PillowReference.missingReason)))
    func watermarkOpacityMatchesPillowsAlphaCompositeWithinOneLevel() async throws {
        // 7 × 5 of varying colour and alpha.
        var mark = Bitmap(width: 7, height: 5)
        for y in 0..<5 { for x in 0..<7 { mark[x, y] = RGBA(UInt8(x * 36), UInt8(200 - y * 40), 90, UInt8(40 + (x * 5 + y) * 6)) } }
        let folder = TemporaryDirectory("watermark-reference")
        let basePath = folder.appending("base.png"), markPath = folder.appending("mark.png")
        try ImageEncoder.encode(TestImages.gradient(width: 64, height: 64), as: .png).write(to: URL(fileURLWithPath: basePath))
        try ImageEncoder.encode(mark, as: .png).write(to: URL(fileURLWithPath: markPath))
        // The option's 0.5 times the service's base 0.8.
        try await withWatermark(mark, opacity: 0.8) { service in
            // Tiled: 11 copies of 7 across (odd, centred) start 6 pixels left of the edge; 13 of 5 down, at 0.
            for (options, x, y, tiled) in [("wm:0.5:soea:4:2", 64 - 7 - 4, 64 - 5 - 2, false), ("wm:0.5:re", -6, 0, true)] {
                let ours = try await render(service, options + "/f:png", "gradient.png")
                let pillow = try PillowReference.composited(base: basePath, mark: markPath, opacity: 0.4, x: x, y: y, tiled: tiled)
                var worst = 0
                for i in 0..<(64 * 64) {
                    let pixel = ours[i % 64, i / 64]
                    for (channel, value) in [pixel.r, pixel.g, pixel.b, pixel.a].enumerated() {
                        worst = max(worst, abs(Int(value) - Int(pillow[i * 4 + channel])))
                    }
                }
                #expect(worst <= 1, "\(options): \(worst) levels from Pillow")
            }
        }
    }

    @Test func everyFrameOfAnAnimationIsWatermarked() async throws {
        try await withWatermark { service in
            let reply = try await service.get("/insecure/wm:1:nowe/f:gif/plain/local:///anim.gif")
            try #require(reply.status == 200)
            let decoder = try reply.image()
            #expect(decoder.frameCount == 3)
            for index in 0..<3 { #expect(near(try decoder.frame(at: index)[1, 1], RGBA(0, 0, 255), tolerance: 8)) }
        }
    }

    @Test func watermarkURLIsFetchedLikeASource() async throws {
        try await withService(files: ["mark.png": try ImageEncoder.encode(Self.mark, as: .png)], { $0.watermark = .url("local:///mark.png") }) {
            service in
            let result7 = try await render(service, "wm:1:soea:4:2/f:png", "gradient.png")
            #expect(isMarked(result7, x: 52, y: 58, width: 8, height: 4))
        }
        // One the allow-list refuses is refused like a source.
        try await withService({
            $0.watermark = .url("https://elsewhere.example/mark.png")
            $0.allowedSources = ["local:///"]
        }) { service in
            let refused = try await service.get("/insecure/wm:1/f:png/plain/local:///gradient.png")
            #expect(refused.status == 404)
        }
    }

    @Test func watermarkURLOptionFetchesItsOwnImageLikeASource() async throws {
        let url = Array("local:///mark.png".utf8).base64URLEncoded
        // No watermark configured: the URL's is used, in any order of the two options.
        try await withService(files: ["mark.png": try ImageEncoder.encode(Self.mark, as: .png)]) { service in
            let after = try await render(service, "wm:1:nowe/wmu:\(url)/f:png", "gradient.png")
            #expect(isMarked(after, x: 0, y: 0, width: 8, height: 4))
            let before = try await render(service, "wmu:\(url)/wm:1:soea/f:png", "gradient.png")
            #expect(isMarked(before, x: 56, y: 60, width: 8, height: 4))
            for bad in ["wmu:!!", "wmu:\(Array("file:///etc/passwd".utf8).base64URLEncoded)"] {
                #expect(try await service.get("/insecure/wm:1/\(bad)/plain/local:///gradient.png").status == 400, "\(bad)")
            }
        }
        // The allow-list refuses it like a source.
        try await withService({ $0.allowedSources = ["local:///"] }) { service in
            let elsewhere = Array("https://elsewhere.example/mark.png".utf8).base64URLEncoded
            let refused = try await service.get("/insecure/wm:1/wmu:\(elsewhere)/f:png/plain/local:///gradient.png")
            #expect(refused.status == 404)
        }
    }

    @Test func watermarkSizeRotationAndShadowShapeTheMark() async throws {
        try await withWatermark { service in
            // 8 × 4 fitted in 16 × 0 (height from the aspect ratio), enlarging.
            try await expectMarks(service, [("wm:1:nowe/wms:16:0", 0, 0, 16, 8), ("wm:1:nowe/wms:0:2", 0, 0, 4, 2)])
            // The scale wins over the size.
            try await expectMarks(service, [("wm:1:nowe:0:0:0.25/wms:40:40", 0, 0, 16, 8)])
            // A quarter turn stands it up.
            try await expectMarks(service, [("wm:1:nowe/wmr:90", 0, 0, 4, 8), ("wm:1:nowe/wm_rot:-270", 0, 0, 4, 8)])
            // A shadow darkens the picture around the mark (the mark itself is unchanged).
            let plain = try await render(service, "wm:1:ce/f:png", "gradient.png")
            let shadowed = try await render(service, "wm:1:ce/wmsh:2/f:png", "gradient.png")
            #expect(shadowed[30, 30] == plain[30, 30])
            let (without, with) = (plain[30, 28], shadowed[30, 28])
            #expect(Int(with.r) + Int(with.g) + Int(with.b) + 30 < Int(without.r) + Int(without.g) + Int(without.b))
            for bad in ["wms:-1", "wms:1:2:3", "wmr:x", "wmsh:-2"] {
                #expect(try await service.get("/insecure/wm:1/\(bad)/plain/local:///gradient.png").status == 400, "\(bad)")
            }
        }
    }

    @Test func withoutAWatermarkImageTheOptionIsCheckedButChangesNothing() async throws {
        try await withService { service in
            let plain = try await service.get("/insecure/f:png/plain/local:///gradient.png")
            let marked = try await service.get("/insecure/wm:1:soea/f:png/plain/local:///gradient.png")
            #expect(plain.status == 200 && marked.body == plain.body)
            for bad in ["wm:1.5", "wm:1:sm", "wm:1:fp", "wm:0.5:ce:0:0:0.5:1", "wm:1:ce:0:0:-1", "wm:x"] {
                #expect(try await service.get("/insecure/\(bad)/plain/local:///gradient.png").status == 400, "\(bad)")
            }
        }
    }
}

import Foundation
import Testing
import YYImage

@testable import YYImageService

/// imgproxy Pro's `page`, `pages`, `disable_animation` and `hashsum`, free here.
extension ProcessingOptionTests {
    /// A TIFF of three pages: 30 × 20 red, 50 × 10 green, 20 × 20 blue.
    static func pagedTIFF() throws -> Data {
        var encoder = ImageEncoder(type: .tiff)
        encoder.addFrame(Bitmap(filledWith: red, width: 30, height: 20))
        encoder.addFrame(Bitmap(filledWith: green, width: 50, height: 10))
        encoder.addFrame(Bitmap(filledWith: blue, width: 20, height: 20))
        return try encoder.encode()
    }

    @Test func pagePicksATIFFPageAndPagesStacksThemLeftAligned() async throws {
        try await withService(files: ["pages.tif": try Self.pagedTIFF()]) { service in
            let second = try await render(service, "pg:1/f:png", "pages.tif")
            #expect(second.width == 50 && second.height == 10 && second[25, 5] == Self.green)
            let stack = try await render(service, "pg:1/pgs:5/f:png", "pages.tif")
            #expect(stack.width == 50 && stack.height == 30)
            #expect(stack[0, 0] == Self.green && stack[0, 10] == Self.blue && stack[19, 29] == Self.blue)
            // The narrower page is padded on its right with transparency.
            #expect(stack[30, 20].a == 0)
            let past = try await service.get("/insecure/pg:3/plain/local:///pages.tif")
            #expect(past.status == 422)
        }
    }

    @Test func disableAnimationMakesAStillFromThePickedFrames() async throws {
        try await withService { service in
            // The GIF's frames are gradients with blue 0, 120 and 240.
            let animated = try await service.get("/insecure/pg:2/f:gif/plain/local:///anim.gif")
            #expect(try animated.image().frameCount == 3, "page is ignored while the result stays animated")
            let third = try await render(service, "da:1/pg:2/f:png", "anim.gif")
            #expect(abs(Int(third[30, 20].b) - 240) <= 8)
            let still = try await service.get("/insecure/da:1/f:gif/plain/local:///anim.gif")
            #expect(try still.image().frameCount == 1)
            let stack = try await render(service, "da:1/pgs:3/f:png", "anim.gif")
            #expect(stack.width == 60 && stack.height == 120)
            #expect(abs(Int(stack[30, 20].b) - 0) <= 8 && abs(Int(stack[30, 100].b) - 240) <= 8)
        }
    }

    @Test func hashsumServesOnlyASourceWithTheGivenDigest() async throws {
        let source = try ImageEncoder.encode(Self.quadrants(), as: .png)
        try await withService { service in
            for algorithm in Hashsum.Algorithm.allCases {
                let digest = Hashsum.digest(algorithm, of: source).hexEncoded
                let reply = try await service.get("/insecure/hs:\(algorithm.rawValue):\(digest)/plain/local:///quadrants.png")
                #expect(reply.status == 200, "\(algorithm)")
            }
            // A digest of other bytes is a 422, whether or not the result is cached already.
            let wrong = Hashsum.digest(.sha256, of: Data("other".utf8)).hexEncoded
            #expect(try await service.get("/insecure/hs:sha256:\(wrong)/plain/local:///quadrants.png").status == 422)
            #expect(try await service.get("/insecure/hs:none/plain/local:///quadrants.png").status == 200)
            for bad in ["hs:sha256:abc", "hs:crc32:00", "hs:md5", "hs:md5:zz\(String(repeating: "0", count: 30))"] {
                #expect(try await service.get("/insecure/\(bad)/plain/local:///quadrants.png").status == 400, "\(bad)")
            }
        }
    }

    @Test func theMD5AndSHA1DigestsAreTheKnownOnes() {
        // RFC 1321's and FIPS 180's digests of "abc".
        #expect(Hashsum.digest(.md5, of: Data("abc".utf8)).hexEncoded == "900150983cd24fb0d6963f7d28e17f72")
        #expect(Hashsum.digest(.sha1, of: Data("abc".utf8)).hexEncoded == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }
}

/// imgproxy Pro's `crop_aspect_ratio`, free here.
extension ProcessingOptionTests {
    @Test func cropAspectRatioReducesOrEnlargesTheCropThenFitsItInTheSource() async throws {
        try await withService { service in
            for (options, width, height) in [
                ("c:20:20/car:2", 20, 10), ("c:20:20/car:2:1", 40, 20), ("car:0.5/c:20:20", 10, 20), ("c:30:30/car:4:t", 64, 16),
                ("c:20:20/car:0", 20, 20),
            ] {
                let result = try await render(service, options + "/f:png", "quadrants.png")
                #expect(result.width == width && result.height == height, "\(options): \(result.width)x\(result.height)")
            }
            // The crop stays where its gravity puts it: top-left red.
            let corner = try await render(service, "c:20:20:nowe/car:2:1/f:png", "quadrants.png")
            #expect(corner[0, 0] == Self.red && corner.width == 40)
            #expect(try await service.get("/insecure/car:-1/plain/local:///quadrants.png").status == 400)
        }
    }
}

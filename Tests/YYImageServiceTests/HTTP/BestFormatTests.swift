import Foundation
import Testing
import YYImage

@testable import YYImageService

/// imgproxy Pro's `format:best`, free here: every candidate encoded, the smallest kept.
extension ProcessingOptionTests {
    /// The sizes of the answers to `options` with each format named, and with `best`.
    func sizes(_ service: ServiceHarness, _ options: String, _ source: String, formats: [String], accept: String)
        async throws -> (named: [String: Int], best: ServiceHarness.Reply)
    {
        var named: [String: Int] = [:]
        for format in formats {
            let reply = try await service.get("/insecure/\(options)/f:\(format)/plain/local:///\(source)")
            try #require(reply.status == 200, "\(format): \(reply.status)")
            named[format] = reply.body.count
        }
        let best = try await service.get("/insecure/\(options)/f:best/plain/local:///\(source)", headers: [("Accept", accept)])
        try #require(best.status == 200)
        return (named, best)
    }

    @Test func bestIsTheSmallestCandidateAndNeverLargerThanAny() async throws {
        try await withService { service in
            for source in ["photo.jpg", "quadrants.png"] {
                let (named, best) = try await sizes(
                    service, "w:200", source, formats: ["jpg", "png", "webp", "avif"], accept: "image/avif,image/webp,*/*")
                #expect(best.body.count == named.values.min(), "\(source): \(best.body.count) of \(named)")
                #expect(best.header("Vary") == "Accept")
                let type = try #require(best.header("Content-Type"))
                #expect(type == OutputFormat.mediaType(try #require(ImageType(sniffing: best.body))))
            }
            // The picture with flat colours is smallest losslessly, the photo lossily.
            let flat = try await service.get("/insecure/f:best/plain/local:///quadrants.png")
            #expect(flat.header("Content-Type") == "image/png")
            let photo = try await service.get("/insecure/f:best/plain/local:///photo.jpg")
            #expect(photo.header("Content-Type") == "image/jpeg")
        }
    }

    @Test func bestTakesOnlyFormatsTheClientAcceptsAndKeepsTransparency() async throws {
        var translucent = Self.quadrants()
        for y in 0..<32 { for x in 0..<64 { translucent[x, y].a = UInt8(x * 4) } }
        let png = try ImageEncoder.encode(translucent, as: .png)
        try await withService(files: ["translucent.png": png]) { service in
            // Without WebP or AVIF in Accept, only JPEG and PNG are tried.
            let plain = try await service.get("/insecure/w:200/plain/local:///photo.jpg@best")
            #expect(["image/jpeg", "image/png"].contains(plain.header("Content-Type")))
            let accepted = try await service.get("/insecure/w:200/plain/local:///photo.jpg@best", headers: [("Accept", "image/webp")])
            #expect(["image/jpeg", "image/png", "image/webp"].contains(accepted.header("Content-Type")))
            // A translucent result is never JPEG, however small it would be.
            let kept = try await service.get("/insecure/q:1/f:best/plain/local:///translucent.png", headers: [("Accept", "image/webp")])
            #expect(kept.status == 200 && kept.header("Content-Type") != "image/jpeg")
            let back = try kept.image().frame(at: 0)
            #expect(abs(Int(back[40, 4].a) - 160) <= 2)
            // The option wins over the extension.
            let option = try await service.get("/insecure/f:best/plain/local:///quadrants.png@jpg")
            #expect(option.header("Content-Type") == "image/png")
        }
    }
}

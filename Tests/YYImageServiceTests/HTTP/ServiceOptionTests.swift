import Foundation
import TestSupport
import Testing
import YYImage
import YYWebImage

@testable import YYImageService

/// The service options imgproxy's users set: the fallback image, presets only, allowed options,
/// the bearer secret, CORS and the base URL.
extension ProcessingOptionTests {
    @Test func aSourceThatCannotBeHadGetsTheFallbackImageWithItsStatusAndHeader() async throws {
        let fallback = try ImageEncoder.encode(Self.block(), as: .png)
        try await withService({
            $0.fallbackImage = .data(fallback)
            $0.fallbackImageStatus = 404
            $0.fallbackImageTimeToLive = .seconds(60)
        }) { service in
            // Missing, and not an image: the fallback, processed with the request's options.
            for source in ["missing.png", "notes.txt"] {
                let reply = try await service.get("/insecure/rs:force:20:10/f:png/plain/local:///\(source)")
                #expect(reply.status == 404 && reply.header("Fallback-Image") == "1", "\(source)")
                #expect(reply.header("Cache-Control") == "public, max-age=60")
                let image = try reply.image().frame(at: 0)
                #expect(image.width == 20 && image.height == 10 && near(image[19, 0], Self.white))
            }
            let good = try await service.get("/insecure/f:png/plain/local:///quadrants.png")
            #expect(good.status == 200 && good.header("Fallback-Image") == nil)
        }
        // Without one, the error.
        try await withService { service in
            let missing = try await service.get("/insecure/f:png/plain/local:///missing.png")
            #expect(missing.status == 404 && missing.header("Fallback-Image") == nil && missing.errorMessage != nil)
        }
    }

    @Test func theFallbackImageURLOptionServesItsOwnImageForAFailingSource() async throws {
        let url = Array("local:///block.png".utf8).base64URLEncoded
        let configured = try ImageEncoder.encode(Self.quadrants(), as: .png)
        try await withService({ $0.fallbackImage = .data(configured) }) { service in
            let reply = try await service.get("/insecure/fiu:\(url)/rs:force:20:10/f:png/plain/local:///missing.png")
            #expect(reply.status == 200 && reply.header("Fallback-Image") == "1")
            // The URL's image (the block: white at the right), not the service's (green there).
            let image = try reply.image().frame(at: 0)
            #expect(image.width == 20 && near(image[19, 0], Self.white))
            let good = try await service.get("/insecure/fiu:\(url)/f:png/plain/local:///quadrants.png")
            #expect(good.status == 200 && good.header("Fallback-Image") == nil)
        }
        // Without a configured one, too.
        try await withService { service in
            let reply = try await service.get("/insecure/fiu:\(url)/f:png/plain/local:///notes.txt")
            #expect(reply.status == 200 && reply.header("Fallback-Image") == "1")
        }
    }

    @Test func aLocalSourcesModificationTimeIsTheResultsLastModified() async throws {
        try await withService { service in
            let first = try await service.get("/insecure/w:10/plain/local:///quadrants.png")
            let header = try #require(first.header("Last-Modified"))
            let date = try #require(HTTPDate.parse(header))
            #expect(abs(date.timeIntervalSinceNow) < 600)
            let cached = try await service.get("/insecure/w:10/plain/local:///quadrants.png", headers: [("If-Modified-Since", header)])
            #expect(cached.status == 304 && cached.header("Last-Modified") == header)
            let stale = try await service.get(
                "/insecure/w:10/plain/local:///quadrants.png", headers: [("If-Modified-Since", HTTPDate.format(date - 1))])
            #expect(stale.status == 200)
        }
    }

    @Test func aStoredResultKeepsItsSourcesTimeAndReadsOldEntriesWithout() throws {
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        let result = StoredResult(image: Data([1, 2, 3]), type: .webp, lastModified: time.addingTimeInterval(0.7))
        #expect(StoredResult(stored: result.stored) == result)
        #expect(StoredResult(stored: result.stored)?.lastModified == time)
        let old = StoredResult(image: Data([1, 2, 3]), type: .webp)
        #expect(StoredResult(stored: old.stored)?.lastModified == nil && StoredResult(stored: old.stored)?.type == .webp)
    }

    @Test func presetsOnlyReadsTheOptionsSectionAsPresetNames() async throws {
        try await withService({
            $0.onlyPresets = true
            $0.presets = ["small": ["rs:force:10:10"], "png": ["f:png"]]
        }) { service in
            let small = try await render(service, "small:png", "quadrants.png")
            #expect(small.width == 10 && small.height == 10)
            // An ad-hoc option is read as preset names, which do not exist.
            let adHoc = try await service.get("/insecure/rs:force:5:5/plain/local:///quadrants.png")
            #expect(adHoc.status == 400)
        }
    }

    @Test func onlyTheAllowedOptionsMayBeWrittenButPresetsKeepTheirOwn() async throws {
        try await withService({
            $0.allowedProcessingOptions = ["w", "pr"]
            $0.presets = ["soft": ["bl:1"]]
        }) { service in
            for options in ["w:10", "w:10/pr:soft"] {
                let reply = try await service.get("/insecure/\(options)/plain/local:///quadrants.png@png")
                #expect(reply.status == 200, "\(options)")
            }
            let refused = try await service.get("/insecure/w:10/bl:2/plain/local:///quadrants.png@png")
            #expect(refused.status == 403 && refused.errorMessage == "forbidden processing option bl")
            // As written: `width` is another name, not allowed unless listed.
            let otherName = try await service.get("/insecure/width:10/plain/local:///quadrants.png@png")
            #expect(otherName.status == 403)
        }
    }

    @Test func theSecretIsRequiredAsABearerTokenButNotForHealth() async throws {
        try await withService({ $0.secret = "s3cret" }) { service in
            let path = "/insecure/f:png/plain/local:///quadrants.png"
            for (authorization, expected) in [(nil, 403), ("Bearer wrong", 403), ("s3cret", 403), ("Bearer s3cret", 200)] {
                let reply = try await service.get(path, headers: authorization.map { [("Authorization", $0)] } ?? [])
                #expect(reply.status == expected, "\(authorization ?? "no header")")
            }
            let health = try await service.get("/health")
            #expect(health.status == 200)
        }
    }

    @Test func corsHeadersNameTheAllowedOriginOnImagesErrorsAndPreflights() async throws {
        try await withService({ $0.allowOrigin = "https://app.example" }) { service in
            let origin = [("Origin", "https://app.example")]
            let image = try await service.get("/insecure/f:png/plain/local:///quadrants.png", headers: origin)
            #expect(image.status == 200 && image.header("Access-Control-Allow-Origin") == "https://app.example")
            let missing = try await service.get("/insecure/f:png/plain/local:///missing.png", headers: origin)
            #expect(missing.status == 404 && missing.header("Access-Control-Allow-Origin") == "https://app.example")
            let preflight = try await service.request("/insecure/f:png/plain/local:///quadrants.png", method: .options, headers: origin)
            #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Methods")?.contains("GET") == true)
            // A request from no page gets none.
            let plain = try await service.get("/insecure/f:png/plain/local:///quadrants.png")
            #expect(plain.header("Access-Control-Allow-Origin") == nil)
        }
        // Without the option, a preflight is a 405 like any other method.
        try await withService { service in
            let preflight = try await service.request("/health", method: .options, headers: [("Origin", "https://app.example")])
            #expect(preflight.status == 405 && preflight.header("Access-Control-Allow-Origin") == nil)
        }
    }

    @Test func theBaseURLGoesBeforeASourceThatDoesNotStartWithIt() async throws {
        try await withService({ $0.baseURL = "local:///" }) { service in
            for path in ["/insecure/f:png/plain/quadrants.png", "/insecure/f:png/plain/local:///quadrants.png"] {
                let reply = try await service.get(path)
                #expect(reply.status == 200, "\(path)")
            }
        }
    }
}

extension ProcessingOptionTests {
    @Test func clientHintsFillInDPRAndWidthWhenTheURLHasNoneAndTheAnswerVariesWithThem() async throws {
        try await withService({ $0.enablesClientHints = true }) { service in
            let hints = [("Sec-CH-DPR", "2"), ("Sec-CH-Width", "40")]
            // 40 device pixels at DPR 2: a 20-pixel CSS width, drawn 40 wide.
            let hinted = try await service.get("/insecure/f:png/plain/local:///quadrants.png", headers: hints)
            #expect(try hinted.image().frame(at: 0).width == 40)
            #expect(hinted.header("Vary")?.contains("Sec-CH-DPR") == true && hinted.header("Accept-CH")?.contains("Sec-CH-Width") == true)
            // The legacy names work too; the URL's own width wins over the hint.
            let legacy = try await service.get("/insecure/f:png/plain/local:///quadrants.png", headers: [("DPR", "1"), ("Width", "16")])
            #expect(try legacy.image().frame(at: 0).width == 16)
            let named = try await service.get("/insecure/w:10/f:png/plain/local:///quadrants.png", headers: hints)
            #expect(try named.image().frame(at: 0).width == 20)
        }
        // Off (the default), hints change nothing.
        try await withService { service in
            let reply = try await service.get("/insecure/f:png/plain/local:///quadrants.png", headers: [("Sec-CH-Width", "40")])
            #expect(try reply.image().frame(at: 0).width == 64 && reply.header("Accept-CH") == nil)
        }
    }

    @Test(.enabled(if: ImageType.jpegXL.isEncodable && ImageType.avif.isEncodable))
    func jpegXLIsNegotiatedWhenEnabledAndTheOrderIsConfigurable() async throws {
        let accept = [("Accept", "image/jxl,image/avif,image/webp,*/*")]
        func format(_ configure: @escaping (inout ImageServiceConfiguration) -> Void) async throws -> String? {
            var type: String?
            try await withService(configure) { service in
                type = try await service.get("/insecure/plain/local:///quadrants.png", headers: accept).header("Content-Type")
            }
            return type
        }
        #expect(try await format { _ in } == "image/avif")
        #expect(try await format { $0.negotiatesJPEGXL = true } == "image/jxl")
        #expect(try await format { $0.preferredFormats = [.webp, .avif] } == "image/webp")
        #expect(
            try await format {
                $0.negotiatesJPEGXL = true; $0.preferredFormats = [.avif, .jpegXL]
            } == "image/avif")
    }
}

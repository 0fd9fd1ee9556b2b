import Foundation
import HTTPTypes
import LoopbackHTTPServer
import TestSupport
import TestTraits
import Testing
import YYImage

@testable import YYImageService

/// `ImageService`'s routes: URL forms, options, statuses and headers, in process through
/// HummingbirdTesting's router framework. Sources come from the test's own origin server on
/// loopback; what needs the service's own socket is in `ImageServiceTests`.
@Suite(.hangLimit) struct RouterTests {
    static let jpeg = TestImages.jpeg()
    static let png = TestImages.png()
    static let gif = TestImages.animatedGIF()

    /// An origin: /photo.jpg, /alpha.png, /anim.gif, /page.html, /missing (404), /broken (500),
    /// /stall (never answers), /endless (a body without end), /bomb.png (a pixel bomb).
    static func origin() async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/photo.jpg": .response(headers: [("Content-Type", "image/jpeg")], body: jpeg)
            case "/alpha.png": .response(body: png)
            case "/anim.gif": .response(body: gif)
            case "/page.html": .response(headers: [("Content-Type", "text/html")], body: Array("<html>hello</html>".utf8))
            case "/broken": .response(status: 500)
            case "/stall": [.stall]
            case "/endless":
                [
                    .send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Transfer-Encoding", "chunked")])),
                    .sendForever(LoopbackHTTPServer.Step.chunk([UInt8](repeating: 0xAB, count: 64 * 1024))),
                ]
            case "/bomb.png": .response(body: TestImages.pixelBomb())
            case "/frame-bomb.gif": .response(body: TestImages.frameBomb())
            default: .response(status: 404)
            }
        }
    }

    /// `body` with the standard origin and a service answered in process, configured by
    /// `configure`; both are stopped afterwards, also when `body` throws.
    private func withService(
        _ configure: (inout ImageServiceConfiguration) -> Void = { _ in },
        _ body: (ServiceHarness, LoopbackHTTPServer) async throws -> Void
    ) async throws {
        let origin = try await Self.origin()
        defer { origin.stop() }
        let service = try await ServiceHarness.inProcess(configure)
        do { try await body(service, origin) } catch {
            await service.stop()
            throw error
        }
        await service.stop()
    }

    private func plain(_ options: String, _ source: String) -> String {
        "/insecure/\(options)/plain/" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    // MARK: Results

    @Test func resultsHaveTheSizeAndFormatTheOptionsAskFor() async throws {
        try await withService { service, origin in
            let source = origin.url("/photo.jpg").absoluteString
            let cases: [(String, ImageType, Int, Int)] = [
                ("rs:fit:100:100", .jpeg, 100, 75), ("rs:fill:100:100", .jpeg, 100, 100), ("w:320/f:png", .png, 320, 240),
                ("h:60/dpr:2/f:webp", .webp, 160, 120), ("rs:force:50:90/f:avif", .avif, 50, 90), ("rs:fit:100:100/rot:90", .jpeg, 75, 100),
                ("rs:fill-down:1000:500", .jpeg, 640, 320), ("rs:fit:800:800", .jpeg, 640, 480), ("rs:fit:800:800:1", .jpeg, 800, 600),
                ("rs:fit:100:100:0:1/bg:ff0000", .jpeg, 100, 100), ("c:0.5:0.5/rs:fit:100:100", .jpeg, 100, 75),
            ]
            for (options, type, width, height) in cases {
                let reply = try await service.get(plain(options, source))
                #expect(reply.status == 200, "\(options): \(reply.errorMessage ?? "")")
                let image = try reply.image()
                #expect(
                    image.type == type && image.canvasWidth == width && image.canvasHeight == height,
                    "\(options): \(image.canvasWidth)x\(image.canvasHeight)")
            }
            let extensionForm = try await service.get(
                "/insecure/rs:fit:50:50/" + Data(source.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + ".png")
            #expect(try extensionForm.image().type == .png)
            #expect(extensionForm.header("Content-Type") == "image/png")
        }
    }

    @Test func acceptChoosesAVIFThenWebPThenTheSourceFormatAndSaysVaryAccept() async throws {
        try await withService { service, origin in
            let path = plain("rs:fit:80:80", origin.url("/photo.jpg").absoluteString)
            let avif = try await service.get(path, headers: [("Accept", "image/avif,image/webp,image/apng,image/*,*/*;q=0.8")])
            #expect(avif.header("Content-Type") == "image/avif" && avif.header("Vary") == "Accept")
            #expect(try avif.image().type == .avif)
            let webp = try await service.get(path, headers: [("Accept", "image/webp,*/*")])
            #expect(webp.header("Content-Type") == "image/webp" && webp.header("Vary") == "Accept")
            let refusedAVIF = try await service.get(path, headers: [("Accept", "image/avif;q=0,image/webp")])
            #expect(refusedAVIF.header("Content-Type") == "image/webp")
            let plainClient = try await service.get(path, headers: [("Accept", "*/*")])
            #expect(plainClient.header("Content-Type") == "image/jpeg" && plainClient.header("Vary") == "Accept")
            let named = try await service.get(
                plain("rs:fit:80:80/f:png", origin.url("/photo.jpg").absoluteString), headers: [("Accept", "image/avif")])
            #expect(named.header("Content-Type") == "image/png" && named.header("Vary") == nil)
        }
    }

    @Test func anETagFromTheBytesAnswersIfNoneMatchWith304() async throws {
        try await withService { service, origin in
            let path = plain("rs:fit:64:64/f:png", origin.url("/photo.jpg").absoluteString)
            let first = try await service.get(path)
            let etag = try #require(first.header("ETag"))
            #expect(first.header("Cache-Control") == "public, max-age=31536000")
            let again = try await service.get(path, headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
            let other = try await service.get(path, headers: [("If-None-Match", "\"something-else\"")])
            #expect(other.status == 200 && other.body == first.body)
            #expect(origin.requestCount(path: "/photo.jpg") == 1)
        }
    }

    @Test func anAnimatedGIFStaysAnimatedAsWebP() async throws {
        try await withService { service, origin in
            let reply = try await service.get(
                plain("rs:fit:30:30", origin.url("/anim.gif").absoluteString), headers: [("Accept", "image/avif,image/webp")])
            #expect(reply.header("Content-Type") == "image/webp")
            let image = try reply.image()
            #expect(image.frameCount == 3 && image.canvasWidth == 30 && image.canvasHeight == 20)
            #expect(image.frameInfos.map(\.duration) == [0.1, 0.1, 0.1])
            let still = try await service.get(plain("rs:fit:30:30/f:jpg", origin.url("/anim.gif").absoluteString))
            #expect(try still.image().frameCount == 1)
        }
    }

    @Test func infoDescribesTheSourceAndHealthDecodesAnImage() async throws {
        try await withService { service, origin in
            let info = try await service.get("/info/insecure/plain/" + origin.url("/anim.gif").absoluteString)
            let object = try #require(try JSONSerialization.jsonObject(with: info.body) as? [String: Any])
            #expect(object["format"] as? String == "gif" && object["width"] as? Int == 60 && object["height"] as? Int == 40)
            #expect(object["frames"] as? Int == 3 && object["durations"] as? [Double] == [0.1, 0.1, 0.1])
            let health = try await service.get("/health")
            #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == #"{"status":"ok"}"#)
        }
    }

    // MARK: Result cache

    @Test func identicalRequestsAtOnceAreComputedOnceAndLaterOnesComeFromMemory() async throws {
        let gate = LoopbackHTTPServer.Gate()
        let origin = try await LoopbackHTTPServer.start { _ in [.waitFor(gate)] + .response(body: Self.jpeg) }
        defer { origin.stop() }
        let service = try await ServiceHarness.inProcess()
        let path = plain("rs:fit:50:50", origin.url("/slow.jpg").absoluteString)
        async let replies = withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 { group.addTask { try await service.get(path).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await origin.wait { _, requests in requests >= 1 }
        gate.open()
        #expect(try await replies == Array(repeating: 200, count: 6))
        #expect(origin.requests.count == 1)
        _ = try await service.get(path)
        #expect(origin.requests.count == 1)
        await service.stop()
    }

    @Test func withoutTheResultCacheEveryRequestIsComputedFromTheCachedOriginal() async throws {
        try await withService({ $0.cachesResults = false }) { service, origin in
            let path = plain("rs:fit:50:50", origin.url("/photo.jpg").absoluteString)
            for _ in 0..<3 {
                let reply = try await service.get(path)
                #expect(reply.status == 200)
            }
            #expect(origin.requestCount(path: "/photo.jpg") == 1)
        }
    }

    // MARK: Errors

    @Test func everyErrorHasImgproxysStatusAndABodyThatNamesTheProblem() async throws {
        // Only the stalled origin waits for the download timeout, so it is short; a loaded
        // machine (a sanitizer run) must not make the other downloads reach it.
        let impatient = try await ServiceHarness.inProcess { $0.limits.downloadTimeout = .milliseconds(500) }
        try await withService({ $0.limits.sourceBytes = 1 << 20 }) { service, origin in
            let cases: [(String, Int, String)] = [
                (plain("rs:wrong", origin.url("/photo.jpg").absoluteString), 400, "option rs: 'wrong' is not fit, fill, fill-down, force or auto"),
                (plain("frobnicate:1", origin.url("/photo.jpg").absoluteString), 400, "unsupported option 'frobnicate'"),
                ("/insecure/rs:fit:1:1", 400, "the URL has no source"),
                (plain("w:10", origin.url("/missing").absoluteString), 404, "the source was not found (origin answered 404)"),
                (plain("w:10", "ftp://example.com/a.jpg"), 400, "the source must be an http(s):// or local:// URL"),
                (plain("w:10", origin.url("/page.html").absoluteString), 422, "the source is not an image this service reads"),
                (plain("w:10", origin.url("/bomb.png").absoluteString), 422, "the source has 100000x100000 pixels, over the limit of 50000000"),
                (
                    plain("w:10", origin.url("/frame-bomb.gif").absoluteString), 422,
                    "pixels: 12544000000 pixels summed over the frames, over the limit of 50000000"
                ),
                (plain("w:10", origin.url("/endless").absoluteString), 422, "the source is larger than 1048576 bytes"),
                (
                    plain("rs:force:8000:8000:1/f:png", origin.url("/photo.jpg").absoluteString), 422,
                    "result: 8000x8000 × 1 frames is over the limit of 50000000 pixels"
                ),
                (
                    plain("rs:force:4000:4000:1/f:jxl", origin.url("/photo.jpg").absoluteString), 422,
                    "result: 4000x4000 as jpegxl needs about 1649 MB, over the limit of 768 MB"
                ),
                (plain("w:10", origin.url("/broken").absoluteString), 502, "the origin answered 500"),
                (plain("w:10", origin.url("/stall").absoluteString), 504, "the origin timed out (request)"),
            ]
            for (path, status, message) in cases {
                let reply = try await (path.hasSuffix("stall") ? impatient : service).get(path)
                #expect(reply.status == status, "\(path)")
                #expect(reply.errorMessage == message, "\(path)")
                #expect(reply.header("Content-Type") == "application/json" && reply.header("Cache-Control") == "no-store")
                let body = String(decoding: reply.body, as: UTF8.self)
                #expect(!body.contains(service.cacheFolder.path) && !body.contains("/tmp"), "\(body)")
            }
        }
        await impatient.stop()
    }

    @Test func aBadSignatureIs403AndAGoodOneIsServed() async throws {
        let signature = URLSignature(keyPairs: [URLSignature.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!])
        try await withService({ $0.signature = signature }) { service, origin in
            let path = "/rs:fit:40:40/plain/" + origin.url("/photo.jpg").absoluteString
            let unsigned = try await service.get("/insecure" + path)
            #expect(unsigned.status == 403 && unsigned.errorMessage == "invalid signature")
            let signed = try await service.get("/" + signature.signature(for: path) + path)
            #expect(signed.status == 200)
            #expect(origin.requestCount(path: "/photo.jpg") == 1)
        }
    }

    @Test func withAKeyAnUnsignedURLIs403WhateverElseIsWrongWithIt() async throws {
        let signature = URLSignature(keyPairs: [URLSignature.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!])
        try await withService({ $0.signature = signature }) { service, _ in
            // A source that is not base64, an unknown option, an empty source: the signature first.
            for path in ["/insecure/rs:fit:10:10/!!!!", "/insecure/nonsense:1/plain/http://a.example/x.png", "/insecure/w:10/"] {
                let reply = try await service.get(path)
                #expect(reply.status == 403 && reply.errorMessage == "invalid signature", "\(path)")
            }
        }
    }

    @Test func withAKeyThePlaygroundSignsOnlyTheSourcesTheOperatorChose() async throws {
        let signature = URLSignature(keyPairs: [URLSignature.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!])
        let root = TemporaryDirectory("serve-playground")
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: root.appending("in.jpg")))
        try await withService({
            $0.signature = signature
            $0.playground = true
            $0.localRoot = root.path
            $0.playgroundSources = ["https://images.example.com/chosen.jpg"]
        }) { service, _ in
            func page(_ source: String) async throws -> (status: Int, html: String) {
                let reply = try await service.get("/?src=" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                return (reply.status, String(decoding: reply.body, as: UTF8.self))
            }
            let oracle = try await page("http://example.com/anything.jpg")
            #expect(oracle.status == 403)
            #expect(!oracle.html.contains("/plain/http://example.com"))
            for source in ["local:///../etc/passwd", "local:///a//b.jpg"] {
                #expect(try await page(source).status == 403, "\(source)")
            }
            let chosen = try await page("https://images.example.com/chosen.jpg")
            #expect(chosen.status == 200)
            #expect(chosen.html.contains("/" + signature.signature(for: "/rs:fit:300:300/plain/https://images.example.com/chosen.jpg")))
            let local = try await page("local:///in.jpg")
            #expect(local.status == 200 && local.html.contains("/plain/local:///in.jpg"))
        }
        // Without a key nothing is signed, so any source may be shown.
        try await withService({ $0.playground = true }) { service, _ in
            let reply = try await service.get("/?src=http%3A%2F%2Fexample.com%2Fa.jpg")
            #expect(reply.status == 200)
        }
    }

    @Test func aSourceOutsideTheAllowListIs404AndNothingIsFetched() async throws {
        try await withService({ $0.allowedSources = ["https://images.example.com/"] }) { service, origin in
            let reply = try await service.get(plain("w:10", origin.url("/photo.jpg").absoluteString))
            #expect(reply.status == 404 && reply.errorMessage == "the source is not allowed")
            #expect(origin.acceptedConnections == 0)
        }
    }

    @Test func localSourcesStayInsideTheRootFolder() async throws {
        let root = TemporaryDirectory("serve-local")
        let outside = TemporaryDirectory("serve-outside")
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: root.appending("in.jpg")))
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: outside.appending("secret.jpg")))
        try FileManager.default.createSymbolicLink(atPath: root.appending("link.jpg"), withDestinationPath: outside.appending("secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: root.appending("dir"), withDestinationPath: outside.path)
        let service = try await ServiceHarness.inProcess { $0.localRoot = root.path }
        #expect(try await service.get("/insecure/w:10/plain/local:///in.jpg").status == 200)
        let refused = [
            "local:///link.jpg", "local:///dir/secret.jpg", "local:///../\(URL(fileURLWithPath: outside.path).lastPathComponent)/secret.jpg",
            "local:///./in.jpg", "local:///missing.jpg", "local:///",
        ]
        for source in refused {
            let reply = try await service.get("/insecure/w:10/plain/" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(reply.status == 404, "\(source)")
            #expect(!String(decoding: reply.body, as: UTF8.self).contains(outside.path), "\(source)")
        }
        let withoutRoot = try await ServiceHarness.inProcess()
        let reply = try await withoutRoot.get("/insecure/w:10/plain/local:///in.jpg")
        #expect(reply.status == 404 && reply.errorMessage == "local sources are not enabled")
        await withoutRoot.stop()
        await service.stop()
    }

    @Test func aFullQueueIs429() async throws {
        let gate = LoopbackHTTPServer.Gate()
        let origin = try await LoopbackHTTPServer.start { _ in [.waitFor(gate)] + .response(body: Self.jpeg) }
        defer { origin.stop() }
        let service = try await ServiceHarness.inProcess {
            $0.workers = 1
            $0.queueLimit = 1
            // The held request must outlive a stalled machine: its deadline is no part of this test.
            $0.limits.processingTimeout = .seconds(600)
            $0.limits.downloadTimeout = .seconds(600)
        }
        // One request at work (its origin held), one waiting: the third finds the queue full.
        async let working = service.get(plain("w:10", origin.url("/1.jpg").absoluteString))
        await origin.wait { _, requests in requests >= 1 }
        async let waiting = service.get(plain("w:10", origin.url("/2.jpg").absoluteString))
        await waitUntil { service.service.queuedRequests == 1 }
        let refused = try await service.get(plain("w:10", origin.url("/3.jpg").absoluteString))
        #expect(refused.status == 429 && refused.errorMessage == "too many requests: the processing queue is full")
        gate.open()
        #expect(try await working.status == 200)
        #expect(try await waiting.status == 200)
        #expect(origin.requestCount(path: "/3.jpg") == 0)
        // The refused request left the queue gauge as it found it.
        let metrics = service.service.metrics.exposition()
        #expect(metrics.contains("\nyy_serve_requests_queued 0.0\n"), "\(metrics)")
        #expect(metrics.contains(#"yy_serve_requests_total{status="429"} 1"#))
        await service.stop()
    }

    @Test func aRequestThatArrivesWhileTheServiceStopsIs503() async throws {
        let service = try await ServiceHarness.inProcess()
        service.service.handler.stopping.withLock { $0 = true }
        let reply = try await service.get("/insecure/w:10/plain/http://127.0.0.1:1/a.jpg")
        #expect(reply.status == 503 && reply.errorMessage == "the service is shutting down")
        await service.stop()
    }

    @Test func processingPastItsTimeoutIs503AndStops() async throws {
        let configure: (inout ImageServiceConfiguration) -> Void = {
            $0.limits.processingTimeout = .milliseconds(300)
            $0.limits.downloadTimeout = .seconds(30)
        }
        try await withService(configure) { service, origin in
            let reply = try await service.get(plain("w:10", origin.url("/stall").absoluteString))
            #expect(reply.status == 503 && reply.errorMessage == "processing took longer than the processing timeout")
            await origin.wait { open, _ in open == 0 }
            #expect(origin.openConnections == 0)
        }
    }

    // MARK: Routing

    @Test func anythingButGETIs405AndPathsOfNoRouteAre404() async throws {
        let service = try await ServiceHarness.inProcess()
        for method in [HTTPRequest.Method.post, .put, .delete] {
            let reply = try await service.request("/insecure/w:10/plain/http://example.com/a.jpg", method: method)
            #expect(reply.status == 405 && reply.errorMessage == "only GET is served", "\(method)")
        }
        for path in ["/", "/favicon.ico", "/robots.txt"] {
            let reply = try await service.get(path)
            #expect(reply.status == 404 && reply.header("Cache-Control") == "no-store", "\(path)")
        }
        await service.stop()
    }

    @Test func sigmasAsSmallAsImgproxyAcceptsAreServedNotRefused() async throws {
        try await withService { service, origin in
            for options in ["rs:fit:50:50/bl:0.2", "rs:fit:50:50/sh:0.2"] {
                let reply = try await service.get(plain(options, origin.url("/photo.jpg").absoluteString))
                #expect(reply.status == 200, "\(options): \(reply.errorMessage ?? "")")
            }
        }
    }

    @Test func errorBodiesCarryFixedTextsAndTheDetailGoesToTheLog() async throws {
        let origin = try await LoopbackHTTPServer.start { _ in .response(body: [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 200)) }
        defer { origin.stop() }
        let service = try await ServiceHarness.inProcess()
        let reply = try await service.get(plain("w:10", origin.url("/broken.jpg").absoluteString))
        #expect(reply.status == 422 && reply.errorMessage == "the source cannot be decoded")
        await service.stop()
    }
}

import Foundation
import LoopbackHTTPServer
import TestTraits
import Testing
import YYCache
import YYImage

@testable import YYWebImage

/// Servers that break HTTP or send what is no image: each load fails with the right typed error
/// (or, where HTTP allows, succeeds with exactly the declared bytes) and nothing bad is cached.
@Suite(.hangLimit) struct HostileServerTests {
    private let png = Fixtures.png()

    /// Loads `path` from a server with `handler` and a disk cache; returns the error and checks
    /// that nothing reached the disk.
    private func failure(
        _ handler: @escaping LoopbackHTTPServer.Handler, idleReadTimeout: Duration = .seconds(15),
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) async throws -> ImagePipelineError? {
        let harness = try await PipelineHarness.start(disk: true, idleReadTimeout: idleReadTimeout, configure: configure, handler: handler)
        defer { harness.server.stop() }
        let error = await harness.error(loading: "/hostile.png")
        #expect(try harness.pipeline.configuration.diskCache?.totalCount == 0, "nothing may be cached after \(String(describing: error))")
        #expect(harness.pipeline.configuration.memoryCache?.totalCount == 0)
        return error
    }

    @Test func aStallAfterTheHeadersFiresTheIdleReadTimeout() async throws {
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(png.count)")])
        let error = try await failure({ _ in [.send(head + png.prefix(10)), .stall] }, idleReadTimeout: .milliseconds(300))
        #expect(error == .timedOut(.idleRead))
    }

    @Test func aSlowDripFiresTheRequestTimeoutWithMonotonicProgress() async throws {
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(png.count)")])
        // The head and 10 bytes at once (so progress is seen however slow the machine), then a byte per 50 ms.
        let drip: [LoopbackHTTPServer.Step] =
            [.send(head + png.prefix(10))]
            + png.dropFirst(10).map { byte in [.pause(.milliseconds(50)), .send([byte])] }.joined()
        let harness = try await PipelineHarness.start(configure: { $0.requestTimeout = .milliseconds(1500) }, handler: { _ in drip })
        defer { harness.server.stop() }
        let task = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/drip.png")))
        var received: [Int] = []
        for await event in task.events {
            if case .progress(let count, let expected) = event {
                received.append(count)
                #expect(expected == png.count)
            }
        }
        await #expect(throws: ImagePipelineError.timedOut(.request)) { try await task.response }
        #expect(received.count >= 2)
        #expect((received.last ?? 0) >= 10)
        #expect(received == received.sorted())
        #expect((received.last ?? 0) < png.count)
        // The timed-out download's connection is closed, not left to the pool.
        #expect(await harness.server.wait { open, _ in open == 0 })
    }

    @Test func theRequestTimeoutCoversEveryRedirectHopTogether() async throws {
        // Three hops of 600 ms each: every one within 1.5 s, all of them not.
        let harness = try await PipelineHarness.start(configure: { $0.requestTimeout = .milliseconds(1500) }) { request in
            let hop = Int(request.path.dropFirst("/hop".count).prefix { $0.isNumber }) ?? 0
            let answer: [LoopbackHTTPServer.Step] =
                hop < 3 ? .response(status: 302, headers: [("Location", "/hop\(hop + 1).png")]) : .response(body: Fixtures.png())
            return [.pause(.milliseconds(600))] + answer
        }
        defer { harness.server.stop() }
        #expect(await harness.error(loading: "/hop0.png") == .timedOut(.request))
        #expect(harness.server.requestCount(path: "/hop3.png") == 0)
    }

    @Test func aTruncatedBodyIsAnErrorAndNothingIsCached() async throws {
        let error = try await failure { [png] _ in
            [.send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(png.count)")]) + png.prefix(png.count / 2)), .close]
        }
        guard case .transport = error else { Issue.record("expected a transport error, got \(String(describing: error))"); return }
    }

    @Test func aResetMidBodyIsAnErrorAndNothingIsCached() async throws {
        let error = try await failure { [png] _ in
            [
                .send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(png.count)")]) + png.prefix(png.count / 2)),
                .pause(.milliseconds(50)), .reset,
            ]
        }
        guard case .transport = error else { Issue.record("expected a transport error, got \(String(describing: error))"); return }
    }

    @Test func aBodyLongerThanContentLengthGivesTheDeclaredBytesOnly() async throws {
        let harness = try await PipelineHarness.start(disk: true) { [png] _ in
            .response(body: png + Array("<html>garbage after the image</html>".utf8), contentLength: png.count)
        }
        defer { harness.server.stop() }
        let response = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/long.png"), options: .returnsOriginalData))
        #expect(response.data.map([UInt8].init) == png)
        // The junk does not poison the next request.
        let next = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/next.png"), options: .returnsOriginalData))
        #expect(next.data.map([UInt8].init) == png)
    }

    @Test func aHugeContentLengthIsRefusedBeforeReading() async throws {
        let error = try await failure { _ in
            [
                .send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "10737418240")])),
                .sendForever([UInt8](repeating: 0, count: 65_536)),
            ]
        }
        #expect(error == .tooLarge(limit: 64 << 20))
    }

    @Test func anEndlessChunkedBodyStopsAtTheSizeLimit() async throws {
        let chunk = LoopbackHTTPServer.Step.chunk([UInt8](repeating: 0x41, count: 65_536))
        let error = try await failure(
            { [png] _ in
                [
                    .send(
                        LoopbackHTTPServer.Step.head(status: 200, headers: [("Transfer-Encoding", "chunked")]) + LoopbackHTTPServer.Step.chunk(png)),
                    .sendForever(chunk),
                ]
            }, configure: { $0.maximumResponseBytes = 1 << 20 })
        #expect(error == .tooLarge(limit: 1 << 20))
    }

    @Test func gzipIsRefusedAlthoughTheBodyMightBeAnImage() async throws {
        let error = try await failure { [png] _ in .response(headers: [("Content-Encoding", "gzip")], body: png) }
        #expect(error == .invalidResponse("gzip-encoded body although identity was asked"))
    }

    @Test func htmlLabelledAsPNGIsNotAnImage() async throws {
        let error = try await failure { _ in .response(headers: [("Content-Type", "image/png")], body: Array("<!doctype html><p>login</p>".utf8)) }
        #expect(error == .decodingFailed(.unknownFormat))
        #expect(error?.description == "not an image")
    }

    @Test func anEmpty200IsAnError() async throws {
        let error = try await failure { _ in .response() }
        #expect(error == .invalidResponse("empty body"))
    }

    @Test func a204IsAnError() async throws {
        let error = try await failure { _ in [.send(LoopbackHTTPServer.Step.head(status: 204, headers: []))] }
        #expect(error == .statusCode(204))
    }

    @Test func a404WithAnImageBodyIsAnError() async throws {
        let error = try await failure { [png] _ in .response(status: 404, body: png) }
        #expect(error == .statusCode(404))
    }

    @Test func aPixelBombIsRefusedBeforeAllocating() async throws {
        let error = try await failure { _ in .response(body: Fixtures.pixelBomb()) }
        #expect(error == .decodingFailed(.tooManyPixels(width: 50_000, height: 50_000, limit: 1 << 27)))
    }

    @Test func aRedirectLoopIsRefused() async throws {
        let harness = try await PipelineHarness.start { request in
            .response(status: 302, headers: [("Location", request.path == "/a" ? "/b" : "/a")])
        }
        defer { harness.server.stop() }
        #expect(await harness.error(loading: "/a") == .invalidRedirect("loop back to \(harness.url("/a").absoluteString)"))
        #expect(harness.server.requests.map(\.path) == ["/a", "/b"])
    }

    @Test func fiveRedirectsAreFollowedAndSixAreNot() async throws {
        let png = self.png
        // /hops/N redirects to /hops/N-1; /hops/0 is the image.
        let harness = try await PipelineHarness.start { request in
            let hops = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return hops == 0 ? .response(body: png) : .response(status: 301, headers: [("Location", "/hops/\(hops - 1)")])
        }
        defer { harness.server.stop() }
        #expect(try await harness.pipeline.image(for: harness.url("/hops/5")).source == .network)
        #expect(await harness.error(loading: "/hops/6") == .invalidRedirect("more than 5 redirects"))
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefused() async throws {
        let loader = ScriptedLoader { request in
            DataLoadResponse(statusCode: 302, headers: ["Location": "http://example.com/plain.png"], body: ScriptedLoader.body([]))
        }
        let pipeline = ImagePipeline(configuration: .init(dataLoader: loader))
        await #expect(throws: ImagePipelineError.invalidRedirect("HTTPS to HTTP (http://example.com/plain.png)")) {
            try await pipeline.image(for: URL(string: "https://example.com/secure.png")!)
        }
        #expect(loader.requestedURLs == ["https://example.com/secure.png"])
    }

    /// A loader of the user's own may pass on any Content-Length: one that is not digits alone is
    /// a malformed response, one of more digits than an `Int` holds is over the size limit.
    @Test(arguments: [
        ("", ImagePipelineError.invalidResponse("Content-Length ''")),
        ("+5", .invalidResponse("Content-Length '+5'")),
        ("-0", .invalidResponse("Content-Length '-0'")),
        ("٣", .invalidResponse("Content-Length '٣'")),
        ("99999999999999999999999", .tooLarge(limit: 64 << 20)),
    ])
    func aContentLengthThatIsNotDigitsAloneIsRefused(value: String, error: ImagePipelineError) async {
        let png = self.png
        let loader = ScriptedLoader { _ in
            DataLoadResponse(statusCode: 200, headers: ["Content-Length": value], body: ScriptedLoader.body(png))
        }
        let pipeline = ImagePipeline(configuration: .init(dataLoader: loader))
        await #expect(throws: error) { try await pipeline.image(for: URL(string: "https://example.com/image.png")!) }
    }
}

/// A ``DataLoading`` that answers from a closure (for what a loopback server cannot show, like HTTPS).
final class ScriptedLoader: DataLoading, @unchecked Sendable {
    // @unchecked: `urls` is guarded by `lock`.
    private let lock = NSLock()
    private var urls: [String] = []
    private let answer: @Sendable (DataLoadRequest) -> DataLoadResponse

    init(answer: @escaping @Sendable (DataLoadRequest) -> DataLoadResponse) {
        self.answer = answer
    }

    var requestedURLs: [String] { lock.withLock { urls } }

    func load(_ request: DataLoadRequest) async throws(ImagePipelineError) -> DataLoadResponse {
        lock.withLock { urls.append(request.url.absoluteString) }
        return answer(request)
    }

    /// A body of one chunk (none when empty).
    static func body(_ bytes: [UInt8]) -> any AsyncSequence<Data, any Error> & Sendable {
        AsyncThrowingStream<Data, any Error> { continuation in
            if !bytes.isEmpty { continuation.yield(Data(bytes)) }
            continuation.finish()
        }
    }
}

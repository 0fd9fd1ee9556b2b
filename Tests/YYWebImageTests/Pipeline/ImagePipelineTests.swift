import Foundation
import LoopbackHTTPServer
import TestTraits
import Testing
import YYImage

@testable import YYWebImage

/// The stages in order (memory → disk → network → decode → processors) and what each response says.
@Suite(.hangLimit) struct ImagePipelineTests {
    @Test func aNetworkLoadIsDecodedAndThenServedFromMemory() async throws {
        let png = Fixtures.png(width: 64, height: 48)
        let harness = try await PipelineHarness.start { _ in .response(headers: [("Content-Type", "image/png")], body: png) }
        defer { harness.server.stop() }

        let first = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/a.png"), options: .returnsOriginalData))
        #expect(first.source == .network)
        #expect(first.statusCode == 200)
        #expect(first.headers["content-type"] == "image/png")
        #expect(first.data.map([UInt8].init) == png)
        #expect((first.image.pixelWidth, first.image.pixelHeight) == (64, 48))
        #expect(first.image.type == .png)

        let second = try await harness.pipeline.image(for: harness.url("/a.png"))
        #expect(second.source == .memory)
        #expect(second.image === first.image)
        #expect(second.data == nil)
        #expect(harness.server.requestCount(path: "/a.png") == 1)
        #expect(harness.pipeline.statistics.memoryHits == 1)
        #expect(harness.pipeline.statistics.decodes == 1)
    }

    @Test func theRequestCarriesTheAcceptAndIdentityHeaders() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { _ in .response(body: png) }
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/h.png"))
        let request = try #require(harness.server.requests.first)
        #expect(request.header("Accept") == "image/webp,image/apng,image/*,*/*;q=0.8")
        #expect(request.header("Accept-Encoding") == "identity")
    }

    @Test func aFreshDiskEntryServesASecondPipelineWithoutTheNetwork() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(disk: true) { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/d.png"))
        let second = try await harness.restarted().pipeline.image(for: harness.url("/d.png"))
        #expect(second.source == .disk)
        #expect(second.statusCode == nil)
        #expect((second.image.pixelWidth, second.image.pixelHeight) == (64, 48))
        #expect(harness.server.requestCount(path: "/d.png") == 1)
    }

    @Test func processorsRunAfterDecodingAndAreCachedUnderTheirOwnKey() async throws {
        let png = Fixtures.png(width: 200, height: 100)
        let harness = try await PipelineHarness.start { _ in .response(body: png) }
        defer { harness.server.stop() }
        let url = harness.url("/p.png")
        let thumbnail = try await harness.pipeline.image(for: ImageRequest(url: url, processors: [.thumbnail(maxPixelSize: 50)]))
        #expect((thumbnail.image.pixelWidth, thumbnail.image.pixelHeight) == (50, 25))
        let full = try await harness.pipeline.image(for: url)
        #expect((full.image.pixelWidth, full.image.pixelHeight) == (200, 100))
        #expect(full.source == .network)  // another memory key, and no disk cache here
        let again = try await harness.pipeline.image(for: ImageRequest(url: url, processors: [.thumbnail(maxPixelSize: 50)]))
        #expect(again.source == .memory)
        #expect(again.image === thumbnail.image)
    }

    /// The processed image's memory key was the URL's key, "#" and the processor: the same text as
    /// the key of a URL whose fragment reads like a processor, so each got the other's image.
    @Test func aURLWhoseFragmentReadsLikeAProcessorDoesNotShareTheProcessedImagesMemoryEntry() async throws {
        let png = Fixtures.png(width: 200, height: 100)
        let harness = try await PipelineHarness.start { _ in .response(body: png) }
        defer { harness.server.stop() }
        let url = harness.url("/p.png")
        let thumbnail = try await harness.pipeline.image(for: ImageRequest(url: url, processors: [.thumbnail(maxPixelSize: 50)]))
        #expect((thumbnail.image.pixelWidth, thumbnail.image.pixelHeight) == (50, 25))
        let fragments = [("thumbnail(50)", (200, 100)), ("first-frame", (200, 100))]
        for (fragment, size) in fragments {
            let withFragment = try #require(URL(string: url.absoluteString + "#" + fragment))
            let full = try await harness.pipeline.image(for: withFragment)
            #expect((full.image.pixelWidth, full.image.pixelHeight) == size, "#\(fragment)")
            #expect(full.source == .network, "#\(fragment)")
        }
        let still = try await harness.pipeline.image(for: ImageRequest(url: url, options: .firstFrameOnly))
        #expect(still.source == .network)
    }

    @Test func downsamplingHappensWhileDecodingAndKeepsEveryFrame() async throws {
        let gif = Fixtures.gif(width: 64, height: 64, frames: 4)
        let harness = try await PipelineHarness.start { _ in .response(body: gif) }
        defer { harness.server.stop() }
        let response = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/g.gif"), processors: [.downsample(maxPixelSize: 16)]))
        #expect((response.image.pixelWidth, response.image.pixelHeight) == (16, 16))
        #expect(response.image.frameCount == 4)
        #expect(try response.image.frame(at: 3).width == 16)
    }

    @Test func firstFrameOnlyGivesAStill() async throws {
        let gif = Fixtures.gif(frames: 3)
        let harness = try await PipelineHarness.start { _ in .response(body: gif) }
        defer { harness.server.stop() }
        let animated = try await harness.pipeline.image(for: harness.url("/f.gif"))
        let still = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/f.gif"), options: .firstFrameOnly))
        #expect(animated.image.frameCount == 3)
        #expect(still.image.frameCount == 1)
        #expect(try still.image.frame(at: 0) == animated.image.frame(at: 0))
    }

    @Test func theCacheKeyFilterLetsTwoURLsShareOneEntry() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(
            configure: { configuration in
                configuration.cacheKey = { url in url.absoluteString.components(separatedBy: "?").first ?? url.absoluteString }
            }, handler: { _ in .response(body: png) })
        defer { harness.server.stop() }
        _ = try await harness.pipeline.image(for: harness.url("/k.png?token=1"))
        let second = try await harness.pipeline.image(for: harness.url("/k.png?token=2"))
        #expect(second.source == .memory)
        #expect(harness.server.requestCount(path: "/k.png") == 1)
    }

    @Test func ignoringTheCachesGoesToTheNetworkAndStoresNothing() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(disk: true) { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        let options: ImageRequest.Options = [.ignoreMemoryCache, .ignoreDiskCache]
        _ = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/i.png"), options: options))
        let second = try await harness.pipeline.image(for: ImageRequest(url: harness.url("/i.png"), options: options))
        #expect(second.source == .network)
        #expect(harness.server.requestCount(path: "/i.png") == 2)
        #expect(try harness.pipeline.configuration.diskCache?.totalCount == 0)
        #expect(harness.pipeline.configuration.memoryCache?.totalCount == 0)
    }

    @Test func aURLThatIsNotHTTPIsRefusedWithoutARequest() async throws {
        let pipeline = ImagePipeline(configuration: .init())
        await #expect(throws: ImagePipelineError.unsupportedURL("file:///etc/passwd")) {
            try await pipeline.image(for: URL(fileURLWithPath: "/etc/passwd"))
        }
        #expect(pipeline.statistics.networkRequests == 0)
    }

    @Test func aRememberedFailureFailsAtOnceUntilItExpires() async throws {
        let harness = try await PipelineHarness.start(configure: { $0.failedURLMemory = .seconds(600) }, handler: { _ in .response(status: 404) })
        defer { harness.server.stop() }
        #expect(await harness.error(loading: "/missing.png") == .statusCode(404))
        #expect(await harness.error(loading: "/missing.png") == .statusCode(404))
        #expect(harness.server.requestCount(path: "/missing.png") == 1)
    }
}

import Foundation
import LoopbackHTTPServer
import TestSupport
import TestTraits
import Testing

@testable import YYWebImage

/// Loading ahead of need: to disk only or to memory, a few at a time, cancellable.
@Suite(.hangLimit) struct ImagePrefetcherTests {
    @Test func prefetchingToDiskStoresTheBytesWithoutDecoding() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(disk: true) { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        let prefetcher = ImagePrefetcher(pipeline: harness.pipeline, destination: .diskCache)
        let urls = (0..<5).map { harness.url("/pre\($0).png") }
        prefetcher.startPrefetching(with: urls)
        await prefetcher.waitUntilDone()
        #expect(try harness.pipeline.configuration.diskCache?.totalCount == 5)
        #expect(harness.pipeline.statistics.decodes == 0)
        #expect(harness.pipeline.configuration.memoryCache?.totalCount == 0)
        #expect(try await harness.pipeline.image(for: urls[0]).source == .disk)
    }

    @Test func prefetchingToMemoryDecodes() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { _ in .response(body: png) }
        defer { harness.server.stop() }
        let prefetcher = ImagePrefetcher(pipeline: harness.pipeline)
        let url = harness.url("/mem.png")
        prefetcher.startPrefetching(with: [url, url])
        await prefetcher.waitUntilDone()
        #expect(harness.pipeline.cachedImage(for: ImageRequest(url: url)) != nil)
        #expect(try await harness.pipeline.image(for: url).source == .memory)
        #expect(harness.server.requestCount(path: "/mem.png") == 1)
    }

    @Test func atMostTheConcurrencyLimitRunsAtOnce() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { _ in [.pause(.milliseconds(50))] + .response(body: png) }
        defer { harness.server.stop() }
        let prefetcher = ImagePrefetcher(pipeline: harness.pipeline, maxConcurrentRequests: 2)
        prefetcher.startPrefetching(with: (0..<8).map { harness.url("/c\($0).png") })
        var highest = 0
        await waitUntil {
            highest = max(highest, harness.pipeline.images.runningCount)
            return prefetcher.pendingCount == 0
        }
        #expect(prefetcher.pendingCount == 0)
        #expect(highest <= 2)
        #expect(harness.server.requests.count == 8)
    }

    @Test func stoppingCancelsTheDownload() async throws {
        let harness = try await PipelineHarness.start { _ in
            [.send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "1000")])), .stall]
        }
        defer { harness.server.stop() }
        let prefetcher = ImagePrefetcher(pipeline: harness.pipeline)
        let url = harness.url("/slow.png")
        prefetcher.startPrefetching(with: [url])
        #expect(await harness.server.wait { open, requests in open == 1 && requests == 1 })
        prefetcher.stopPrefetching(with: [url])
        #expect(prefetcher.pendingCount == 0)
        #expect(await harness.server.wait { open, _ in open == 0 })
    }

    /// Each prefetch's task held the prefetcher: dropping it stopped nothing, and its downloads
    /// (and the queued ones after them) ran on until they ended or timed out.
    @Test func releasingThePrefetcherStopsItsPrefetches() async throws {
        let harness = try await PipelineHarness.start { _ in
            [.send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "1000")])), .stall]
        }
        defer { harness.server.stop() }
        weak var released: ImagePrefetcher?
        do {
            let prefetcher = ImagePrefetcher(pipeline: harness.pipeline, maxConcurrentRequests: 2)
            prefetcher.startPrefetching(with: (0..<6).map { harness.url("/dropped\($0).png") })
            released = prefetcher
            #expect(await harness.server.wait { open, requests in open == 2 && requests == 2 })
        }
        #expect(released == nil)
        #expect(await harness.server.wait { open, _ in open == 0 })
        #expect(harness.server.requests.count == 2)  // the four queued ones never started
    }

    @Test func aURLPrefetchedAgainAfterItWasStoppedIsCountedAndCanBeStopped() async throws {
        let harness = try await PipelineHarness.start { _ in
            [.send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "1000")])), .stall]
        }
        defer { harness.server.stop() }
        // One slot: the second prefetch starts once the stopped one has let go of it.
        let prefetcher = ImagePrefetcher(pipeline: harness.pipeline, maxConcurrentRequests: 1)
        let url = harness.url("/again.png")
        prefetcher.startPrefetching(with: [url])
        #expect(await harness.server.wait { open, requests in open == 1 && requests == 1 })
        prefetcher.stopPrefetching(with: [url])
        prefetcher.startPrefetching(with: [url])
        #expect(await harness.server.wait { _, requests in requests == 2 })
        // The stopped prefetch, ending, removed the new one's entry: it was neither counted nor
        // stopped, and its download stayed open until the 15 s idle-read timeout.
        #expect(prefetcher.pendingCount == 1)
        prefetcher.stopPrefetching()
        #expect(prefetcher.pendingCount == 0)
        #expect(await harness.server.wait { open, _ in open == 0 })
    }
}

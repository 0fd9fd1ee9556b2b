import Foundation
import LoopbackHTTPServer
import TestTraits
import Testing
import YYImage

@testable import YYWebImage

/// Identical requests share one download, one disk read and one decode; cancellation leaves
/// the others running and, when everyone cancelled, closes the download.
@Suite(.hangLimit) struct CoalescingTests {
    @Test func aHundredConcurrentRequestsMakeOneDownloadAndOneDecode() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { _ in [.pause(.milliseconds(100))] + .response(body: png) }
        defer { harness.server.stop() }
        let url = harness.url("/one.png")
        let images = try await withThrowingTaskGroup(of: Image.self) { group in
            for _ in 0..<100 { group.addTask { try await harness.pipeline.image(for: url).image } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try #require(images.count == 100)
        #expect(images.allSatisfy { $0 === images[0] })
        #expect(harness.server.requestCount(path: "/one.png") == 1)
        #expect(harness.pipeline.statistics.decodes == 1)
        #expect(harness.pipeline.statistics.downloads == 1)
    }

    @Test func tenRequestsForADiskCachedURLMakeOneDiskRead() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(disk: true) { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        let url = harness.url("/disk.png")
        _ = try await harness.pipeline.image(for: url)
        let second = try harness.restarted()
        let sources = try await withThrowingTaskGroup(of: ImageResponse.Source.self) { group in
            for _ in 0..<10 { group.addTask { try await second.pipeline.image(for: url).source } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sources == Array(repeating: .disk, count: 10))
        #expect(second.pipeline.statistics.diskReads == 1)
        #expect(second.pipeline.statistics.decodes == 1)
        #expect(harness.server.requestCount(path: "/disk.png") == 1)
    }

    @Test func cancellingOneWaiterLeavesTheOthersRunning() async throws {
        let png = Fixtures.png()
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(png.count)")])
        let harness = try await PipelineHarness.start { _ in
            [.send(head + png.prefix(20)), .pause(.milliseconds(300)), .send(Array(png.dropFirst(20)))]
        }
        defer { harness.server.stop() }
        let url = harness.url("/shared.png")
        let cancelled = harness.pipeline.imageTask(for: ImageRequest(url: url))
        let kept = harness.pipeline.imageTask(for: ImageRequest(url: url))
        // Both are waiting on the download once each has seen its first bytes.
        for task in [cancelled, kept] { await task.waitForProgress(atLeast: 20) }
        cancelled.cancel()
        await #expect(throws: ImagePipelineError.cancelled) { try await cancelled.response }
        #expect(try await kept.response.source == .network)
        #expect(harness.server.requestCount(path: "/shared.png") == 1)
    }

    @Test func cancellingEveryWaiterClosesTheDownload() async throws {
        let png = Fixtures.png()
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(png.count)")])
        let harness = try await PipelineHarness.start { _ in [.send(head + png.prefix(20)), .stall] }
        defer { harness.server.stop() }
        let url = harness.url("/stalled.png")
        let tasks = (0..<3).map { _ in harness.pipeline.imageTask(for: ImageRequest(url: url)) }
        for task in tasks { await task.waitForProgress(atLeast: 20) }
        #expect(harness.server.openConnections == 1)
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: ImagePipelineError.cancelled) { try await task.response } }
        #expect(await harness.server.wait { open, _ in open == 0 }, "the client closes the connection of a cancelled download")
        #expect(!harness.pipeline.originals.isRunning(RequestKeys(ImageRequest(url: url), harness.pipeline.configuration).dataJob))
    }

    @Test func aCancelledTaskThatWasTheOnlyWaiterLetsTheNextRequestStartAfresh() async throws {
        let png = Fixtures.png()
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(png.count)")])
        let attempts = Version()
        let harness = try await PipelineHarness.start { _ in
            attempts.current += 1
            return attempts.current == 1 ? [.send(head), .stall] : .response(body: png)
        }
        defer { harness.server.stop() }
        let url = harness.url("/again.png")
        let first = harness.pipeline.imageTask(for: ImageRequest(url: url))
        await harness.server.wait { _, requests in requests == 1 }
        first.cancel()
        await #expect(throws: ImagePipelineError.cancelled) { try await first.response }
        #expect(try await harness.pipeline.image(for: url).source == .network)
        #expect(attempts.current == 2)
    }
}

extension ImageTask {
    /// Returns once the task reported `bytes` received (or ended).
    func waitForProgress(atLeast bytes: Int) async {
        for await event in events {
            if case .progress(let received, _) = event, received >= bytes { return }
        }
    }
}

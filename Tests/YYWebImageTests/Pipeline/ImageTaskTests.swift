import Foundation
import LoopbackHTTPServer
import Testing
import YYImage
@testable import YYWebImage

/// The task form: progress, progressive previews and priorities that change while it runs.
@Suite(.timeLimit(.minutes(2))) struct ImageTaskTests {
    @Test func progressivePreviewsArriveAtMostOncePerIntervalAndTheImageCompletes() async throws {
        let jpeg = Fixtures.jpeg(width: 512, height: 384)
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(jpeg.count)")])
        let pieces = 6
        let size = (jpeg.count + pieces - 1) / pieces
        let steps: [LoopbackHTTPServer.Step] = [.send(head)] + (0..<pieces).flatMap { index -> [LoopbackHTTPServer.Step] in
            [.send(Array(jpeg[(index * size)..<min(jpeg.count, (index + 1) * size)])), .pause(.milliseconds(250))]
        }
        let harness = try await PipelineHarness.start { _ in steps }
        defer { harness.server.stop() }
        let started = ContinuousClock.now
        let task = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/progressive.jpg"), options: .progressive))
        var previews: [Bitmap] = []
        var lastProgress = 0
        for await event in task.events {
            switch event {
            case .preview(let bitmap): previews.append(bitmap)
            case .progress(let received, let expected):
                #expect(received >= lastProgress)
                #expect(expected == jpeg.count)
                lastProgress = received
            }
        }
        let elapsed = ContinuousClock.now - started
        let response = try await task.response
        #expect((response.image.pixelWidth, response.image.pixelHeight) == (512, 384))
        #expect(lastProgress == jpeg.count)
        #expect(previews.count >= 2, "a preview per piece after the header, at most one per 0.2 s")
        #expect(Double(previews.count) <= elapsed / .milliseconds(200) + 1)
        #expect(previews.allSatisfy { ($0.width, $0.height) == (512, 384) })
        #expect(harness.pipeline.statistics.previews == previews.count)
    }

    @Test func withoutTheProgressiveOptionThereAreNoPreviews() async throws {
        let jpeg = Fixtures.jpeg()
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(jpeg.count)")])
        let half = jpeg.count / 2
        let harness = try await PipelineHarness.start { _ in [.send(head + jpeg.prefix(half)), .pause(.milliseconds(300)), .send(Array(jpeg.dropFirst(half)))] }
        defer { harness.server.stop() }
        let task = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/plain.jpg")))
        var previews = 0
        for await event in task.events { if case .preview = event { previews += 1 } }
        _ = try await task.response
        #expect(previews == 0)
        #expect(harness.pipeline.statistics.previews == 0)
    }

    /// A pipeline with one connection per host, held by a stalled download until the test cancels it.
    private func blockedPipeline(order: Recorder) async throws -> (PipelineHarness, ImageTask) {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start(configure: { $0.connectionsPerHost = 1 }) { request in
            order.append(request.path)
            return request.path == "/block.png" ? [.send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "100")])), .stall] : .response(body: png)
        }
        let blocker = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/block.png")))
        await harness.server.wait { _, requests in requests == 1 }
        return (harness, blocker)
    }

    private func waitUntilQueued(_ count: Int, in pipeline: ImagePipeline) async {
        while pipeline.downloads.queuedCount < count { await Task.yield() }
    }

    @Test func queuedDownloadsStartInPriorityOrderAndAPriorityChangeMovesOneAhead() async throws {
        let order = Recorder()
        let (harness, blocker) = try await blockedPipeline(order: order)
        defer { harness.server.stop() }
        let low = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/low.png"), priority: .low))
        let normal = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/normal.png"), priority: .normal))
        let raised = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/raised.png"), priority: .veryLow))
        await waitUntilQueued(3, in: harness.pipeline)
        raised.priority = .veryHigh
        blocker.cancel()
        for task in [low, normal, raised] { _ = try await task.response }
        #expect(order.values == ["/block.png", "/raised.png", "/normal.png", "/low.png"])
    }

    @Test func aRequestThatJoinsAQueuedDownloadRaisesItsPriority() async throws {
        let order = Recorder()
        let (harness, blocker) = try await blockedPipeline(order: order)
        defer { harness.server.stop() }
        // Queued first and at a higher priority, /other.png would go first without the join.
        let other = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/other.png"), priority: .normal))
        await waitUntilQueued(1, in: harness.pipeline)
        let prefetch = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/wanted.png"), priority: .veryLow))
        await waitUntilQueued(2, in: harness.pipeline)
        let real = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/wanted.png"), priority: .high))
        // The real request joined the queued download rather than queueing another.
        let key = RequestKeys(ImageRequest(url: harness.url("/wanted.png")), harness.pipeline.configuration).imageJob
        while harness.pipeline.images.waiterCount(for: key) < 2 { await Task.yield() }
        #expect(harness.pipeline.downloads.queuedCount == 2)
        blocker.cancel()
        for task in [prefetch, other, real] { _ = try await task.response }
        #expect(order.values == ["/block.png", "/wanted.png", "/other.png"])
    }
}

/// Values appended from any thread, read in order.
final class Recorder: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [String] = []
    func append(_ value: String) { lock.withLock { recorded.append(value) } }
    var values: [String] { lock.withLock { recorded } }
}

import Foundation
import LoopbackHTTPServer
import TestSupport
import TestTraits
import Testing
import YYImage

@testable import YYWebImage

/// The task form: progress, progressive previews and priorities that change while it runs.
@Suite(.hangLimit) struct ImageTaskTests {
    /// What a `.progressive` task saw of `bytes`, served in `pieces` pieces 250 ms apart.
    private struct StreamedLoad {
        var previews: [Bitmap] = []
        var lastProgress = 0
        var elapsed: Duration = .zero
        var response: ImageResponse?
    }

    /// Serves `bytes` in `pieces` pieces, each sent once the task has reported the one before it
    /// as received and 250 ms have passed: every piece is then its own read, past the preview
    /// interval, however slow a loaded machine is to read (pieces sent on time alone were read
    /// together there, and gave fewer previews).
    private func loadInPieces(_ bytes: [UInt8], pieces: Int, path: String) async throws -> StreamedLoad {
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(bytes.count)")])
        let size = (bytes.count + pieces - 1) / pieces
        let ends = (0..<pieces).map { min(bytes.count, ($0 + 1) * size) }
        let gates = ends.map { _ in LoopbackHTTPServer.Gate() }
        let steps: [LoopbackHTTPServer.Step] =
            [.send(head)]
            + (0..<pieces).flatMap { index -> [LoopbackHTTPServer.Step] in
                [.send(Array(bytes[(index * size)..<ends[index]])), .waitFor(gates[index]), .pause(.milliseconds(250))]
            }
        let harness = try await PipelineHarness.start { _ in steps }
        defer { harness.server.stop() }
        let started = ContinuousClock.now
        let task = harness.pipeline.imageTask(for: ImageRequest(url: harness.url(path), options: .progressive))
        var load = StreamedLoad()
        for await event in task.events {
            switch event {
            case .preview(let bitmap): load.previews.append(bitmap)
            case .progress(let received, let expected):
                #expect(received >= load.lastProgress)
                #expect(expected == bytes.count)
                load.lastProgress = received
                for (end, gate) in zip(ends, gates) where end <= received { gate.open() }
            }
        }
        load.elapsed = ContinuousClock.now - started
        load.response = try await task.response
        #expect(harness.pipeline.statistics.previews == load.previews.count)
        return load
    }

    @Test func progressivePreviewsArriveAtMostOncePerIntervalAndTheImageCompletes() async throws {
        let jpeg = Fixtures.jpeg(width: 512, height: 384)
        let load = try await loadInPieces(jpeg, pieces: 6, path: "/progressive.jpg")
        let image = try #require(load.response).image
        #expect((image.pixelWidth, image.pixelHeight) == (512, 384))
        #expect(load.lastProgress == jpeg.count)
        #expect(load.previews.count >= 2, "a preview per piece after the header, at most one per 0.2 s")
        #expect(Double(load.previews.count) <= load.elapsed / .milliseconds(200) + 1)
        #expect(load.previews.allSatisfy { ($0.width, $0.height) == (512, 384) })
    }

    /// YYKit's own sample pictures in the three formats that show a whole picture early: each
    /// preview is full size, they change as data arrives, and the first is not yet the final image.
    @Test(
        .needsSharedTestData,
        arguments: ["mew_interlaced.png", "mew_interlaced.gif", "mew_progressive.jpg"])
    func interlacedAndProgressiveFilesGivePreviewsThatImprove(_ name: String) async throws {
        let bytes = try [UInt8](Data(contentsOf: TestData.url("yykit/images/demo/" + name)))
        let load = try await loadInPieces(bytes, pieces: 8, path: "/" + name)
        let image = try #require(load.response).image
        let final = try image.frame(at: 0)
        #expect(load.previews.count >= 3, "previews: \(load.previews.count)")
        #expect(load.previews.allSatisfy { ($0.width, $0.height) == (image.pixelWidth, image.pixelHeight) })
        #expect(load.previews.first != final)
        #expect(Set(load.previews.map(\.pixels)).count == load.previews.count, "each preview shows more than the one before")
    }

    @Test func everyConsumerOfATasksEventsSeesEveryEventAndALateOneStartsWhereTheTaskIs() async throws {
        let png = Fixtures.png(width: 256, height: 256)
        let thirds = [0, png.count / 3, 2 * png.count / 3, png.count]
        // The body in three pieces, each sent when the test says.
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let loader = ScriptedLoader { _ in
            let body = AsyncThrowingStream<Data, any Error> { continuation in
                Task {
                    var gates = gate.makeAsyncIterator()
                    for index in 0..<3 {
                        continuation.yield(Data(png[thirds[index]..<thirds[index + 1]]))
                        if index < 2 { _ = await gates.next() }
                    }
                    continuation.finish()
                }
            }
            return DataLoadResponse(statusCode: 200, headers: ["Content-Length": "\(png.count)"], body: body)
        }
        let pipeline = ImagePipeline(configuration: .init(dataLoader: loader))
        let task = pipeline.imageTask(for: ImageRequest(url: URL(string: "https://example.com/three-pieces.png")!))
        // The bytes each progress event reports, leaving out the one of the response's head (0
        // bytes), which a stream taken after it has arrived starts without.
        func received(_ stream: AsyncStream<ImageTask.Event>) -> Task<[Int], Never> {
            Task { await stream.reduce(into: []) { if case .progress(let count, png.count) = $1, count > 0 { $0.append(count) } } }
        }
        let (first, second) = (task.events, task.events)
        var early = first.makeAsyncIterator()
        var firstEvent = await early.next()
        if case .progress(0, png.count) = firstEvent { firstEvent = await early.next() }
        guard case .progress(thirds[1], png.count) = firstEvent else {
            Issue.record("no progress for the first piece: \(String(describing: firstEvent))"); return
        }
        // Joining after the first piece: it is where the stream starts.
        let late = received(task.events)
        let rest = Task { [early] in
            var early = early
            var counts = [thirds[1]]
            while let event = await early.next() { if case .progress(let count, _) = event { counts.append(count) } }
            return counts
        }
        let both = received(second)
        opener.yield(())
        opener.yield(())
        let image = try await task.response.image
        #expect((image.pixelWidth, image.pixelHeight) == (256, 256))
        #expect(await rest.value == Array(thirds.dropFirst()))
        #expect(await both.value == Array(thirds.dropFirst()))
        #expect(await late.value == Array(thirds.dropFirst()))
        // After the end: where it ended, and the stream ends at once.
        #expect(await received(task.events).value == [png.count])
    }

    @Test func withoutTheProgressiveOptionThereAreNoPreviews() async throws {
        let jpeg = Fixtures.jpeg()
        let head = LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "\(jpeg.count)")])
        let half = jpeg.count / 2
        let harness = try await PipelineHarness.start { _ in
            [.send(head + jpeg.prefix(half)), .pause(.milliseconds(300)), .send(Array(jpeg.dropFirst(half)))]
        }
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
            return request.path == "/block.png"
                ? [.send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Content-Length", "100")])), .stall] : .response(body: png)
        }
        let blocker = harness.pipeline.imageTask(for: ImageRequest(url: harness.url("/block.png")))
        await harness.server.wait { _, requests in requests == 1 }
        return (harness, blocker)
    }

    private func waitUntilQueued(_ count: Int, in pipeline: ImagePipeline) async {
        await waitUntil { pipeline.network.downloads.queuedCount >= count }
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
        await waitUntil { harness.pipeline.images.waiterCount(for: key) >= 2 }
        #expect(harness.pipeline.network.downloads.queuedCount == 2)
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

import Foundation
import LoopbackHTTPServer
import TestSupport
import TestTraits
import Testing

@testable import YYWebImage

/// Many requests with random cancellation leave no task, queued waiter or connection behind.
@Suite(.hangLimit) struct PipelineStressTests {
    @Test func tenThousandRequestsWithRandomCancellationLeakNothing() async throws {
        let png = Fixtures.png(width: 16, height: 16)
        let harness = try await PipelineHarness.start { _ in .response(body: png) }
        defer { harness.server.stop() }
        var random = SplitMix64(seed: 42)
        let plan = (0..<10_000).map { _ in
            (path: "/s\(Int.random(in: 0..<300, using: &random)).png", cancel: Int.random(in: 0..<3, using: &random) == 0)
        }
        var completed = 0, cancelled = 0
        for batch in stride(from: 0, to: plan.count, by: 500) {
            let tasks = plan[batch..<min(plan.count, batch + 500)].map { item in
                (harness.pipeline.imageTask(for: ImageRequest(url: harness.url(item.path), options: .ignoreMemoryCache)), item.cancel)
            }
            for (task, cancel) in tasks where cancel { task.cancel() }
            for (task, _) in tasks {
                let result = await Result { () async throws(ImagePipelineError) in try await task.response }
                switch result {
                case .success: completed += 1
                case .failure(let error):
                    #expect(error == .cancelled)
                    cancelled += 1
                }
            }
        }
        #expect(completed + cancelled == 10_000)
        #expect(completed > 5_000)
        #expect(harness.pipeline.images.runningCount == 0)
        #expect(harness.pipeline.originals.runningCount == 0)
        #expect(harness.pipeline.network.downloads.runningCount == 0)
        #expect(harness.pipeline.network.downloads.queuedCount == 0)
        // Idle keep-alive connections stay in the pool, never more than the per-host limit.
        #expect(await harness.server.wait { open, _ in open <= 6 })
    }
}

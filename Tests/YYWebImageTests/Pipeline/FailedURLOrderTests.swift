import Foundation
import LoopbackHTTPServer
import TestTraits
import Testing

@testable import YYWebImage

/// With `failedURLMemory`, the outcome of the data job that began last wins: a download that
/// fails after a newer one succeeded does not make the URL fail, and a newer success ends an
/// older failure.
@Suite(.hangLimit) struct FailedURLOrderTests {
    let png = Fixtures.png(width: 8, height: 8)

    /// A pipeline with a disk and no memory cache (which would answer before the remembered
    /// failure is looked at), remembering failures for ten minutes.
    func harness(_ script: ScriptedReplies) async throws -> PipelineHarness {
        try await PipelineHarness.start(
            disk: true,
            configure: { configuration in
                configuration.memoryCache = nil
                configuration.failedURLMemory = .seconds(600)
            }, handler: script.reply)
    }

    var fresh: [LoopbackHTTPServer.Step] { .response(headers: [("Cache-Control", "max-age=3600")], body: png) }

    @Test func aFailureThatEndsAfterANewerSuccessIsNotRemembered() async throws {
        let held = LoopbackHTTPServer.Gate()
        let harness = try await harness(ScriptedReplies([(held, .response(status: 500)), (nil, fresh)]))
        defer { harness.server.stop() }

        let older = Task { await harness.error(loading: "/flaky.png") }
        try #require(await harness.server.wait { _, requests in requests == 1 }, "the first load never reached the server")
        #expect(await harness.error(loading: "/flaky.png", options: .refresh) == nil, "the newer download succeeds")
        held.open()
        #expect(await older.value == .statusCode(500))

        #expect(await harness.error(loading: "/flaky.png") == nil, "the URL is not failed by the older download")
        #expect(harness.server.requestCount(path: "/flaky.png") == 2, "the image came from the disk")
    }

    @Test func aNewerSuccessEndsTheRememberedFailureOfAnOlderDownload() async throws {
        let olderHeld = LoopbackHTTPServer.Gate(), newerHeld = LoopbackHTTPServer.Gate()
        let harness = try await harness(ScriptedReplies([(olderHeld, .response(status: 500)), (newerHeld, fresh)]))
        defer { harness.server.stop() }

        let older = Task { await harness.error(loading: "/flaky.png") }
        try #require(await harness.server.wait { _, requests in requests == 1 }, "the first load never reached the server")
        let newer = Task { await harness.error(loading: "/flaky.png", options: .refresh) }
        try #require(await harness.server.wait { _, requests in requests == 2 }, "the second load never reached the server")
        olderHeld.open()
        #expect(await older.value == .statusCode(500))
        newerHeld.open()
        #expect(await newer.value == nil)

        #expect(await harness.error(loading: "/flaky.png") == nil, "the newer success ended the remembered failure")
        #expect(harness.server.requestCount(path: "/flaky.png") == 2, "the image came from the disk")
    }

    @Test func aNewerFailureIsRememberedThoughAnOlderDownloadSucceedsAfterIt() async throws {
        let olderHeld = LoopbackHTTPServer.Gate()
        let harness = try await harness(ScriptedReplies([(olderHeld, fresh), (nil, .response(status: 500))]))
        defer { harness.server.stop() }

        let older = Task { await harness.error(loading: "/flaky.png") }
        try #require(await harness.server.wait { _, requests in requests == 1 }, "the first load never reached the server")
        #expect(await harness.error(loading: "/flaky.png", options: .refresh) == .statusCode(500))
        olderHeld.open()
        #expect(await older.value == nil)

        #expect(await harness.error(loading: "/flaky.png") == .statusCode(500), "the newer failure is what is remembered")
        #expect(harness.server.requestCount(path: "/flaky.png") == 2)
    }
}

import Foundation
import LoopbackHTTPServer
import SharedTierDoubles
import TestSupport
import TestTraits
import Testing
import YYCache

@testable import YYWebImage

/// Two data jobs of one image (a refresh beside a plain load) that both download it store their
/// originals in the order they began, not the order they finished.
@Suite(.hangLimit) struct OriginalStoreOrderTests {
    let old = Fixtures.png(width: 64, height: 48), new = Fixtures.png(width: 32, height: 24)

    /// The old image for a plain request, the new one for a revalidation of the old.
    func oldThenNew(_ request: LoopbackHTTPServer.Request) -> [LoopbackHTTPServer.Step] {
        request.header("If-None-Match") == "\"old\""
            ? .response(headers: [("ETag", "\"new\""), ("Cache-Control", "max-age=3600")], body: new)
            : .response(headers: [("ETag", "\"old\""), ("Cache-Control", "max-age=3600")], body: old)
    }

    /// A plain load's download is held while a newer job of the image downloads it again and
    /// finishes first. The disk keeps the original of the job that began last among those that
    /// store one: the refresh's (the older download, finishing last, replaced it), or the plain
    /// load's beside a job that ignores the disk (which, counted as a store though it made none,
    /// had the plain load's original refused or taken away again, so the disk kept nothing).
    @Test(arguments: zip([ImageRequest.Options.refresh, .ignoreDiskCache], [true, false]))
    func theDiskKeepsTheOriginalOfTheLastJobThatStoresOne(newer options: ImageRequest.Options, storesItsOriginal: Bool) async throws {
        let held = LoopbackHTTPServer.Gate()
        // The plain load's download is held; the newer job's gets the new image at once.
        let script = ScriptedReplies([
            (held, .response(headers: [("ETag", "\"old\""), ("Cache-Control", "max-age=3600")], body: old)),
            (nil, .response(headers: [("ETag", "\"new\""), ("Cache-Control", "max-age=3600")], body: new)),
        ])
        let harness = try await PipelineHarness.start(disk: true, handler: script.reply)
        defer { harness.server.stop() }
        let url = harness.url("/image.png")

        let plain = Task { try await harness.pipeline.image(for: ImageRequest(url: url, options: .returnsOriginalData)) }
        try #require(await harness.server.wait { _, requests in requests == 1 }, "the plain load never reached the server")
        #expect(try await harness.pipeline.image(for: ImageRequest(url: url, options: options.union(.returnsOriginalData))).data == Data(new))
        held.open()
        #expect(try await plain.value.data == Data(old), "the plain load returns what it downloaded")

        let after = try await harness.restarted().pipeline.image(for: ImageRequest(url: url, options: .returnsOriginalData))
        #expect(after.source == .disk)
        #expect(after.data == Data(storesItsOriginal ? new : old), "the disk keeps the original of the last job that stores one")
        #expect(harness.pipeline.originalStore.jobs.keysInFlight == 0, "every data job ended")
    }

    /// The older job's write to the shared tier is slow: the newer job stores its original in the
    /// meantime, and the older copy lands over it. The older job sees that it was overtaken and
    /// takes its copy away again.
    @Test func anOlderOriginalThatLandsAfterANewerOneIsTakenAwayAgain() async throws {
        let server = try await LoopbackHTTPServer.start(handler: oldThenNew)
        defer { server.stop() }
        let url = server.url("/image.png")
        let folder = TemporaryDirectory("store-order")
        let tier = StalledSharedTier(stalling: .writes, limit: 1)
        var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader())
        configuration.diskCache = try DiskCache(path: folder.path)
        configuration.sharedTier = tier
        let pipeline = ImagePipeline(configuration: configuration)

        // The plain load downloads the old image, writes it to disk and waits on the tier...
        let plain = Task { try await pipeline.image(for: ImageRequest(url: url, options: .returnsOriginalData)) }
        await waitUntil { tier.waitingCount == 1 }
        try #require(tier.waitingCount == 1, "the plain load never wrote to the tier")
        // ...while a refresh revalidates it, gets the new image and stores it everywhere.
        #expect(try await pipeline.image(for: ImageRequest(url: url, options: [.refresh, .returnsOriginalData])).data == Data(new))
        tier.open()
        #expect(try await plain.value.data == Data(old))

        let inTier = try await tier.inner.entry(forKey: url.absoluteString).flatMap { SharedOriginal.decode($0.data) }
        #expect(inTier?.data != Data(old), "the tier keeps the older original, which landed last")
        let onDisk = try await configuration.diskCache?.data(forKey: url.absoluteString)
        #expect(onDisk != Data(old), "the disk keeps the older original")
        #expect(pipeline.originalStore.jobs.keysInFlight == 0, "every data job ended")
    }
}

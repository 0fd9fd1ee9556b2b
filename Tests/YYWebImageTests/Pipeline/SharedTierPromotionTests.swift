import Foundation
import LoopbackHTTPServer
import SharedTierDoubles
import TestSupport
import TestTraits
import Testing
import YYCache

@testable import YYWebImage

/// A copy read from the shared tier is put on this machine's disk only if no newer original of
/// its key was stored while it was read.
@Suite(.hangLimit) struct SharedTierPromotionTests {
    /// Two jobs of one key run at once when one request refreshes. The plain one, still waiting
    /// for the tier's older copy, wrote it over the original the refresh had just stored (the disk
    /// served that older image as fresh for its max-age), and put its decoded image over the
    /// refreshed one in memory.
    @Test func anOlderSharedCopyReplacesTheRefreshedImageNeitherOnDiskNorInMemory() async throws {
        let old = Fixtures.png(width: 64, height: 48), new = Fixtures.png(width: 32, height: 24)
        // The first download gets the old image; a revalidation of it, the new one.
        let server = try await LoopbackHTTPServer.start { request in
            request.header("If-None-Match") == "\"old\""
                ? .response(headers: [("ETag", "\"new\""), ("Cache-Control", "max-age=3600")], body: new)
                : .response(headers: [("ETag", "\"old\""), ("Cache-Control", "max-age=3600")], body: old)
        }
        defer { server.stop() }
        let url = server.url("/image.png")
        let tier = StalledSharedTier(stalling: .reads, limit: 1)

        // Another machine put the old image in the shared tier.
        var elsewhere = ImagePipeline.Configuration(dataLoader: HTTPDataLoader())
        elsewhere.sharedTier = tier.inner
        #expect(try await ImagePipeline(configuration: elsewhere).image(for: url).source == .network)

        let folder = TemporaryDirectory("promotion")
        var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader())
        configuration.diskCache = try DiskCache(path: folder.path)
        configuration.sharedTier = tier
        let pipeline = ImagePipeline(configuration: configuration)

        // A plain load finds nothing on disk and waits for the tier's reply (the old copy)...
        let plain = Task { try await pipeline.image(for: ImageRequest(url: url, options: .returnsOriginalData)) }
        await waitUntil { tier.waitingCount == 1 }
        try #require(tier.waitingCount == 1, "the plain load never read the tier")
        // ...while a refresh downloads the new image and stores it.
        let refreshed = try await pipeline.image(for: ImageRequest(url: url, options: [.refresh, .returnsOriginalData]))
        #expect(refreshed.data == Data(new))
        tier.open()
        #expect(try await plain.value.data == Data(old), "the plain load returns what it found")
        #expect(
            pipeline.cachedImage(for: ImageRequest(url: url))?.pixelWidth == 32,
            "the memory cache keeps the refreshed image, not the older one that arrived after it")

        // Whatever the disk keeps now must not be the old image: the new one, or nothing (a
        // miss costs a download of the new one).
        var restart = ImagePipeline.Configuration(dataLoader: HTTPDataLoader())
        restart.diskCache = try DiskCache(path: folder.path)
        let after = try await ImagePipeline(configuration: restart).image(for: ImageRequest(url: url, options: .returnsOriginalData))
        #expect(after.data == Data(new), "the disk served the older image (source \(after.source))")
        #expect(pipeline.originalStore.overlaps.keysInFlight == 0, "every lookup and write ended")
        #expect(pipeline.decodeStage.memoryWrites.keysInFlight == 0, "every image job ended")
    }
}

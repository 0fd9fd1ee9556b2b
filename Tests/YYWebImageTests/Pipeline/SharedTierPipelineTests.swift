import Foundation
import LoopbackHTTPServer
import TestSupport
import TestTraits
import Testing
import YYCache
import YYCacheRedis

@testable import YYWebImage

/// Pipelines on different machines (here: separate disk folders) sharing originals through Redis.
@Suite(.needsRedisServer, .hangLimit) struct SharedTierPipelineTests {
    let redis: RedisServer

    init() throws {
        redis = try RedisServer()
    }

    /// A tier on the test's server with timeouts no loaded machine misses. The default 250 ms
    /// connect timeout ran out under AddressSanitizer with the whole suite in parallel, and the
    /// stale copy was never read. These tests are about what the tier holds, not how fast.
    func patientTier() throws -> RedisCacheTier {
        var configuration = try RedisConfiguration(urls: [redis.url])
        configuration.operationTimeout = .seconds(10)
        configuration.connectTimeout = .seconds(10)
        return RedisCacheTier(client: RedisClient(configuration: configuration))
    }

    /// One machine of a cluster: a pipeline with a disk folder of its own and the shared tier.
    struct Machine {
        let folder = TemporaryDirectory("machine")
        let pipeline: ImagePipeline

        init(tier: RedisCacheTier, cacheKey: (@Sendable (URL) -> String)? = nil) throws {
            var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader())
            configuration.diskCache = try DiskCache(path: folder.path)
            configuration.sharedTier = tier
            if let cacheKey { configuration.cacheKey = cacheKey }
            pipeline = ImagePipeline(configuration: configuration)
        }
    }

    @Test func aClusterDownloadsEachImageOnce() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        let tier = try patientTier()
        let first = try Machine(tier: tier).pipeline
        let secondMachine = try Machine(tier: tier)
        let second = secondMachine.pipeline

        #expect(try await first.image(for: harness.url("/a.png")).source == .network)
        let shared = try await second.image(for: ImageRequest(url: harness.url("/a.png"), options: .returnsOriginalData))
        #expect(shared.source == .sharedTier)
        #expect(shared.data.map([UInt8].init) == png)
        #expect(harness.server.requestCount(path: "/a.png") == 1)
        #expect(second.statistics.sharedTierHits == 1)
        // Kept on the second machine's disk: a restart there needs neither Redis nor the server.
        var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader())
        configuration.diskCache = try DiskCache(path: secondMachine.folder.path)
        #expect(try await ImagePipeline(configuration: configuration).image(for: harness.url("/a.png")).source == .disk)
    }

    /// Cache keys that Swift calls equal ("é" composed or not) are one key in the tier, as on
    /// disk: they were two, and the second machine downloaded the image again.
    @Test func cacheKeysThatSwiftCallsEqualShareOneCopy() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        let tier = try patientTier()
        let byName: @Sendable (URL) -> String = { $0.lastPathComponent }
        let first = try Machine(tier: tier, cacheKey: byName), second = try Machine(tier: tier, cacheKey: byName)
        let composed = try #require(URL(string: harness.url("/").absoluteString + "caf%C3%A9.png"))
        let decomposed = try #require(URL(string: harness.url("/").absoluteString + "cafe%CC%81.png"))
        #expect(byName(composed) == byName(decomposed))
        #expect(Array(byName(composed).utf8) != Array(byName(decomposed).utf8))
        #expect(try await first.pipeline.image(for: composed).source == .network)
        #expect(try await second.pipeline.image(for: decomposed).source == .sharedTier)
        #expect(harness.server.requests.count == 1)
    }

    @Test func aStaleSharedCopyIsRevalidatedWithItsValidator() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { request in
            request.header("If-None-Match") == "\"v1\""
                ? .response(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")])
                : .response(headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")], body: png)
        }
        defer { harness.server.stop() }
        let tier = try patientTier()
        let first = try Machine(tier: tier), second = try Machine(tier: tier)
        #expect(try await first.pipeline.image(for: harness.url("/v.png")).source == .network)
        #expect(try await second.pipeline.image(for: harness.url("/v.png")).source == .revalidated)
        #expect(harness.server.requests.last?.header("If-None-Match") == "\"v1\"")
    }

    @Test func aRedisThatIsDownOnlyCostsADownload() async throws {
        let png = Fixtures.png()
        let harness = try await PipelineHarness.start { _ in .response(headers: [("Cache-Control", "max-age=3600")], body: png) }
        defer { harness.server.stop() }
        let tier = try patientTier()
        redis.kill()
        let machine = try Machine(tier: tier)
        #expect(try await machine.pipeline.image(for: harness.url("/d.png")).source == .network)
        #expect(machine.pipeline.statistics.sharedTierErrors >= 1)
    }
}

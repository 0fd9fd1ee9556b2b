import Foundation
import TestSupport
import Testing
import YYCache
import YYImage

@testable import YYImageService

/// The result cache's stored form: the entity tag travels with the image through every level, and
/// a stored value that is not a result is replaced rather than served.
struct ResultCacheTests {
    static let image = TestImages.png()

    @Test func aStoredResultKeepsItsTagAndImageAndTheTagIsTheImagesHash() throws {
        let result = StoredResult(image: Data(Self.image))
        let read = try #require(StoredResult(stored: result.stored))
        #expect(read == result && read.type == .png)
        #expect(result.etag == "\"" + URLSignature.base64URL(HMACSHA256.digest(Data(Self.image))) + "\"")
        // A slice of a larger buffer (as a read may hand back) reads the same.
        let padded = Data([1, 2, 3]) + result.stored
        #expect(StoredResult(stored: padded[3...]) == result)
    }

    @Test(arguments: [[], [0], [5, 0x22, 0x61], [3, 0x22, 0x61, 0x22], [2, 0xFF, 0xFE, 0x89]] as [[UInt8]])
    func bytesThatAreNotAStoredResultAreRefused(bytes: [UInt8]) {
        #expect(StoredResult(stored: Data(bytes)) == nil)
    }

    @Test func aHitFromEveryLevelAnswersWithTheTagOfTheComputedResult() async throws {
        let folder = TemporaryDirectory("result-cache")
        let results = ResultCache(cache: try Cache<Data>(path: folder.path), timeToLive: .seconds(60), fillLockTimeToLive: .seconds(5))
        let computed = try await results.result(forKey: "k") { ImageRenderer.Output(data: Data(Self.image), type: .png) }
        let memory = try await results.result(forKey: "k") { throw CancellationError() }
        results.cache?.memoryCache.removeAll()
        let disk = try await results.result(forKey: "k") { throw CancellationError() }
        #expect(computed.level == .computed && memory.level == .memory && disk.level == .disk)
        #expect(memory.result == computed.result && disk.result == computed.result)
    }

    @Test func aDamagedStoredValueIsReplacedByAComputedResult() async throws {
        let folder = TemporaryDirectory("result-cache")
        let cache = try Cache<Data>(path: folder.path)
        try await cache.setValue(Data([9, 9, 9]), forKey: "k")
        let results = ResultCache(cache: cache, timeToLive: .seconds(60), fillLockTimeToLive: .seconds(5))
        let lookup = try await results.result(forKey: "k") { ImageRenderer.Output(data: Data(Self.image), type: .png) }
        #expect(lookup.level == .computed && lookup.result.image == Data(Self.image))
        #expect(try await cache.value(forKey: "k") == nil)
    }
}

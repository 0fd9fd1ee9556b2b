import Foundation
import Synchronization
import TestSupport
import Testing
import YYDispatch

@testable import YYCache

@Suite struct CacheTests {
    struct User: Codable, Equatable, Sendable { var id: Int; var name: String }

    @Test func readsThroughAndPromotesDiskHitsIntoMemory() throws {
        let folder = TemporaryDirectory("twolevel")
        let cache = try Cache<User>(path: folder.path)
        let user = User(id: 1, name: "ibireme")
        try cache.setValue(user, forKey: "u1")
        #expect(cache.memoryCache.contains("u1"))
        #expect(try cache.diskCache.contains("u1"))
        cache.memoryCache.removeAll()
        #expect(try cache.contains("u1"))
        #expect(try cache.value(forKey: "u1") == user)  // from disk…
        #expect(cache.memoryCache.contains("u1"))  // …now in memory
        #expect(cache.diskCache.statistics.hits == 1)
        #expect(try cache.value(forKey: "u1") == user)
        #expect(cache.diskCache.statistics.hits == 1)  // served by memory
        #expect(try cache.value(forKey: "nobody") == nil)
    }

    /// A cache whose disk holds, under "u1", bytes stored for an older shape of User (no name).
    private func cacheWithAnOldShapeStored() throws -> (Cache<User>, CapturingLogHandler.Store, TemporaryDirectory) {
        let folder = TemporaryDirectory("shape")
        let (logger, log) = CapturingLogHandler.logger()
        let cache = try Cache<User>(path: folder.path, logger: logger)
        try cache.diskCache.setData(Data(#"{"id":1}"#.utf8), forKey: "u1")
        return (cache, log, folder)
    }

    @Test func aStoredValueTheCoderCannotReadIsAMiss() throws {
        // Decoding threw on every read of the key until it expired.
        let (cache, log, _) = try cacheWithAnOldShapeStored()
        #expect(try cache.value(forKey: "u1") == nil)
        #expect(log.contains(level: .warning, "could not be decoded"))
        try cache.setValue(User(id: 1, name: "new"), forKey: "u1")
        cache.memoryCache.removeAll()
        #expect(try cache.value(forKey: "u1") == User(id: 1, name: "new"))
    }

    @Test func aStoredValueTheCoderCannotReadIsReplacedByAFill() async throws {
        // value(forKey:orFill:) threw too, and never ran the fill that would have replaced it.
        let (cache, _, _) = try cacheWithAnOldShapeStored()
        #expect(try await cache.value(forKey: "u1") == nil)
        let filled = try await cache.value(forKey: "u1") { User(id: 1, name: "filled") }
        #expect(filled == User(id: 1, name: "filled"))
        cache.memoryCache.removeAll()
        #expect(try await cache.value(forKey: "u1") == User(id: 1, name: "filled"))
    }

    @Test func writesAndRemovalsGoToBothLevels() throws {
        let folder = TemporaryDirectory("both")
        let cache = try Cache<Data>(path: folder.path)
        try cache.setValue(testBytes(30_000), forKey: "a")
        #expect(cache.memoryCache.totalCost == 30_000)  // Data costs its size in memory
        try cache.removeValue(forKey: "a")
        #expect(!cache.memoryCache.contains("a"))
        #expect(try !cache.diskCache.contains("a"))
        try cache.setValue(testBytes(10), forKey: "b")
        try cache.removeAll()
        #expect(cache.memoryCache.totalCount == 0)
        #expect(try cache.diskCache.totalCount == 0)
    }

    @Test func dataIsStoredOnDiskAsIs() throws {
        let folder = TemporaryDirectory("raw")
        let cache = try Cache<Data>(path: folder.path)
        try cache.setValue(Data("raw bytes".utf8), forKey: "k")
        #expect(try cache.diskCache.data(forKey: "k") == Data("raw bytes".utf8))
    }

    @Test func promotionKeepsTheRemainingTimeToLive() throws {
        let folder = TemporaryDirectory("ttlpromote")
        let wallClock = DiskTestEnvironment(), monotonic = ManualClock()
        let cache = Cache<Data>(
            memoryCache: MemoryCache(name: "ttl", clock: monotonic.cacheClock),
            diskCache: try DiskCache(path: folder.path, testEnvironment: wallClock),
            memoryCost: Cache.defaultMemoryCost)
        try cache.setValue(Data("x".utf8), forKey: "short", expiresAfter: .seconds(10))
        cache.memoryCache.removeAll()
        // 4 s later the disk hit is promoted with the 6 s it has left, not a fresh 10 s.
        wallClock.advance(by: .seconds(4)); monotonic.advance(by: .seconds(4))
        #expect(try cache.value(forKey: "short") == Data("x".utf8))
        #expect(cache.memoryCache.contains("short"))
        wallClock.advance(by: .milliseconds(5_990)); monotonic.advance(by: .milliseconds(5_990))
        #expect(cache.memoryCache.contains("short"))
        wallClock.advance(by: .milliseconds(20)); monotonic.advance(by: .milliseconds(20))
        #expect(!cache.memoryCache.contains("short"), "gone from memory when its time on disk ran out")
        #expect(try cache.value(forKey: "short") == nil)
    }

    @Test func namedCachesLiveUnderTheRootFolder() throws {
        let root = TemporaryDirectory("root")
        let cache = try Cache<Data>(name: "avatars", rootDirectory: root.path)
        #expect(cache.name == "avatars")
        #expect(cache.diskCache.path.hasSuffix("/avatars"))
        #expect(FileManager.default.fileExists(atPath: root.appending("avatars/manifest.sqlite")))
        #expect(!Cache<Data>.defaultRootDirectory.isEmpty)
    }

    @Test func asyncVariants() async throws {
        let folder = TemporaryDirectory("asynccache")
        let cache = try Cache<User>(path: folder.path)
        try await cache.setValue(User(id: 2, name: "a"), forKey: "u")
        cache.memoryCache.removeAll()
        #expect(try await cache.contains("u"))
        #expect(try await cache.value(forKey: "u") == User(id: 2, name: "a"))
        #expect(cache.memoryCache.contains("u"))
        try await cache.removeValue(forKey: "u")
        #expect(try await !cache.contains("u"))
        try await cache.setValue(User(id: 3, name: "b"), forKey: "v")
        try await cache.removeAll()
        #expect(try await cache.value(forKey: "v") == nil)
    }

    @Test func removeAllWithProgressEmptiesBothLevels() async throws {
        let folder = TemporaryDirectory("cacheprogress")
        let cache = try Cache<Data>(path: folder.path)
        for i in 0..<50 { try await cache.setValue(testBytes(21_000 + i), forKey: "\(i)") }
        let last = Locked<(Int, Int)>((-1, -1))
        try await cache.removeAll { removed, total in last.withLock { $0 = (removed, total) } }
        #expect(last.withLock { $0 } == (50, 50))
        #expect(cache.memoryCache.totalCount == 0)
        #expect(try await cache.diskCache.totals().count == 0)
    }

    /// A coder that refuses to encode one value.
    struct RefusingCoder: CacheValueCoder {
        struct Refused: Error {}
        func encode<T: Encodable>(_ value: T) throws -> Data {
            if let text = value as? String, text == "unencodable" { throw Refused() }
            return try JSONEncoder().encode(value)
        }
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T { try JSONDecoder().decode(type, from: data) }
    }

    /// A write that fails (the coder refuses the value, or the disk the write) leaves the value
    /// that was stored: memory kept the new one, which was served until it was evicted and the
    /// disk's older one came back.
    @Test func aFailedWriteLeavesTheStoredValueInEveryLevel() throws {
        let (cache, folder) = try cacheRefusingSomeWrites()
        try cache.setValue("stored", forKey: "k")
        for value in ["unencodable", Self.needsAFile] {
            #expect(throws: DiskCacheError.self) { try cache.setValue(value, forKey: "k") }
            #expect(cache.memoryCache.value(forKey: "k") ?? "stored" == "stored")
        }
        #expect(try cache.value(forKey: "k") == "stored")
        _ = folder
    }

    @Test func aFailedAsyncWriteLeavesTheStoredValueInEveryLevel() async throws {
        let (cache, folder) = try cacheRefusingSomeWrites()
        try await cache.setValue("stored", forKey: "k")
        for value in ["unencodable", Self.needsAFile] {
            await #expect(throws: DiskCacheError.self) { try await cache.setValue(value, forKey: "k") }
            #expect(cache.memoryCache.value(forKey: "k") ?? "stored" == "stored")
        }
        #expect(try await cache.value(forKey: "k") == "stored")
        _ = folder
    }

    /// Large enough to be a file, which the disk then refuses (its name stem is not a file name).
    static let needsAFile = String(repeating: "x", count: 100)

    /// A cache whose coder refuses "unencodable" and whose disk refuses every file.
    private func cacheRefusingSomeWrites() throws -> (Cache<String>, TemporaryDirectory) {
        let folder = TemporaryDirectory("failedwrite")
        let cache = try Cache<String>(path: folder.path, inlineThreshold: 16)
        cache.diskCache.coder = RefusingCoder()
        cache.diskCache.fileNameStem = { _ in "../outside" }
        return (cache, folder)
    }
}

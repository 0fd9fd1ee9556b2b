import Foundation
import Synchronization
import TestSupport
import Testing
import YYDispatch

@testable import YYCache

@Suite struct DiskCacheTests {
    @Test func storesSmallValuesInlineAndLargeOnesAsFiles() throws {
        let folder = TemporaryDirectory("disk")
        let cache = try DiskCache(path: folder.path)
        let small = testBytes(100)
        let large = testBytes(100_000)
        try cache.setData(small, forKey: "small")
        try cache.setData(large, forKey: "large")
        try cache.setData(Data(), forKey: "empty")
        #expect(try cache.data(forKey: "small") == small)
        #expect(try cache.data(forKey: "large") == large)
        #expect(try cache.data(forKey: "empty") == Data())
        #expect(try cache.data(forKey: "none") == nil)
        #expect(cache.dataFileNames.count == 1)
        #expect(try cache.totalCount == 3)
        #expect(try cache.totalCost == 100_100)
    }

    @Test func inlineThresholdBoundaryIsExclusive() throws {
        let folder = TemporaryDirectory("threshold")
        let cache = try DiskCache(path: folder.path, inlineThreshold: 1000)
        try cache.setData(testBytes(1000), forKey: "at")
        #expect(cache.dataFileNames.isEmpty)
        try cache.setData(testBytes(1001), forKey: "above")
        #expect(cache.dataFileNames.count == 1)
    }

    @Test func thresholdZeroStoresEveryNonEmptyValueAsAFileAndMaxStoresAllInline() throws {
        let files = TemporaryDirectory("files")
        let allFiles = try DiskCache(path: files.path, inlineThreshold: 0)
        for i in 0..<5 { try allFiles.setData(testBytes(10 + i), forKey: "\(i)") }
        #expect(allFiles.dataFileNames.count == 5)
        let inline = TemporaryDirectory("inline")
        let allInline = try DiskCache(path: inline.path, inlineThreshold: .max)
        try allInline.setData(testBytes(1_000_000), forKey: "big")
        #expect(allInline.dataFileNames.isEmpty)
        #expect(try allInline.data(forKey: "big") == testBytes(1_000_000))
    }

    @Test func overwritingWritesANewFileAndDeletesTheOldOne() throws {
        let folder = TemporaryDirectory("overwrite")
        let cache = try DiskCache(path: folder.path)
        try cache.setData(testBytes(50_000, seed: 1), forKey: "k")
        let first = cache.dataFileNames
        try cache.setData(testBytes(60_000, seed: 2), forKey: "k")
        let second = cache.dataFileNames
        #expect(first.count == 1)
        #expect(second.count == 1)
        #expect(first != second)
        try cache.setData(testBytes(10, seed: 3), forKey: "k")  // now inline: the file goes
        #expect(cache.dataFileNames.isEmpty)
        #expect(try cache.data(forKey: "k") == testBytes(10, seed: 3))
        #expect(try cache.totalCount == 1)
    }

    @Test func keepsExtendedDataBesideTheValue() throws {
        let folder = TemporaryDirectory("extended")
        let env = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, testEnvironment: env)
        try cache.setData(testBytes(30_000), forKey: "k", extendedData: Data("meta".utf8))
        try cache.setData(testBytes(10), forKey: "plain")
        #expect(try cache.extendedData(forKey: "k") == Data("meta".utf8))
        #expect(try cache.extendedData(forKey: "plain") == nil)
        #expect(try cache.extendedData(forKey: "missing") == nil)
        let entry = try #require(try cache.entry(forKey: "k"))
        #expect(entry.data == testBytes(30_000))
        #expect(entry.extendedData == Data("meta".utf8))
        #expect(entry.modificationDate == Date(milliseconds: env.milliseconds.load(ordering: .relaxed)))
        #expect(entry.expirationDate == nil)
    }

    @Test func containsAndRemove() throws {
        let folder = TemporaryDirectory("remove")
        let cache = try DiskCache(path: folder.path)
        try cache.setData(testBytes(30_000), forKey: "file")
        try cache.setData(testBytes(3), forKey: "inline")
        #expect(try cache.contains("file"))
        #expect(try cache.contains("inline"))
        #expect(try !cache.contains("x"))
        try cache.removeValue(forKey: "file")
        try cache.removeValue(forKey: "inline")
        try cache.removeValue(forKey: "never")
        #expect(try !cache.contains("file"))
        #expect(try !cache.contains("inline"))
        #expect(cache.dataFileNames.isEmpty)
        #expect(try cache.totalCount == 0)
    }

    @Test func oneInstancePerFolderPerProcess() throws {
        let folder = TemporaryDirectory("registry")
        let a = try DiskCache(path: folder.path)
        let b = try DiskCache(path: folder.path + "/./")
        let link = folder.path + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let c = try DiskCache(path: link)
        #expect(a.core === b.core)
        #expect(a.core === c.core)
        a.countLimit = 7
        #expect(c.countLimit == 7)
        try a.setData(Data("x".utf8), forKey: "k")
        #expect(try c.data(forKey: "k") == Data("x".utf8))
        #expect(b.statistics.hits == 1)
    }

    @Test func customFileNamesGetAUniqueSuffix() throws {
        let folder = TemporaryDirectory("names")
        let cache = try DiskCache(path: folder.path)
        cache.fileNameStem = { key in "img-" + key.replacingOccurrences(of: "/", with: "_") }
        try cache.setData(testBytes(30_000), forKey: "a/b")
        let name = try #require(cache.dataFileNames.first)
        #expect(name.hasPrefix("img-a_b."))
        try cache.setData(testBytes(30_001), forKey: "a/b")
        #expect(cache.dataFileNames.count == 1)
        #expect(cache.dataFileNames.first != name)
    }

    /// The stem closure (and coder) a new one replaced was released under the options' lock, and
    /// with it whatever it captured: a deinit there that read the options deadlocked.
    @Test func replacingTheFileNameStemReleasesTheOldOneOutsideTheLock() async throws {
        final class CallsBackOnRelease: Sendable {
            let cache: DiskCache
            init(_ cache: DiskCache) { self.cache = cache }
            deinit { _ = cache.fileNameStem }
        }
        let folder = TemporaryDirectory("stem-release")
        let cache = try DiskCache(path: folder.path)
        cache.fileNameStem = { [captured = CallsBackOnRelease(cache)] key in withExtendedLifetime(captured) { key } }
        let finished = await returnsInTime { cache.fileNameStem = nil }
        #expect(finished, "replacing the stem deadlocked")
    }

    @Test func rejectsCustomFileNamesThatAreNotPlainNames() throws {
        let folder = TemporaryDirectory("badnames")
        let cache = try DiskCache(path: folder.path)
        for bad in ["", ".", "..", "../escape", "a/b", "nul\u{0}x", String(repeating: "n", count: 201)] {
            cache.fileNameStem = { _ in bad }
            #expect(throws: DiskCacheError.self) { try cache.setData(testBytes(30_000), forKey: "k") }
        }
        #expect(cache.dataFileNames.isEmpty)
        #expect(try cache.data(forKey: "k") == nil)
    }

    @Test func codableValuesRoundTripThroughTheCoder() throws {
        struct Book: Codable, Equatable { var id: Int; var title: String; var tags: [String] }
        let folder = TemporaryDirectory("codable")
        let cache = try DiskCache(path: folder.path)
        let book = Book(id: 1, title: "YYKit", tags: ["swift", "cache"])
        try cache.setValue(book, forKey: "b")
        #expect(try cache.value(Book.self, forKey: "b") == book)
        #expect(try cache.value(Book.self, forKey: "none") == nil)
        // Data bypasses the coder: stored and returned byte for byte.
        try cache.setValue(Data([0, 1, 2]), forKey: "raw")
        #expect(try cache.data(forKey: "raw") == Data([0, 1, 2]))
        // Bytes that do not decode are a typed error naming the key.
        try cache.setData(Data("not json".utf8), forKey: "junk")
        #expect(throws: DiskCacheError.self) { try cache.value(Book.self, forKey: "junk") }
    }

    @Test func usesAPluggableCoder() throws {
        final class Box: Sendable { let calls = Atomic<Int>(0) }
        struct CountingCoder: CacheValueCoder {
            let box: Box
            let inner = PropertyListCacheValueCoder()
            func encode<T: Encodable>(_ value: T) throws -> Data {
                box.calls.wrappingAdd(1, ordering: .relaxed)
                return try inner.encode(value)
            }
            func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
                box.calls.wrappingAdd(1, ordering: .relaxed)
                return try inner.decode(type, from: data)
            }
        }
        let box = Box()
        let folder = TemporaryDirectory("coder")
        let cache = try DiskCache(path: folder.path)
        cache.coder = CountingCoder(box: box)
        try cache.setValue(["a": 1], forKey: "k")
        #expect(try cache.value([String: Int].self, forKey: "k") == ["a": 1])
        #expect(box.calls.load(ordering: .relaxed) == 2)
        let stored = try #require(try cache.data(forKey: "k"))
        #expect(stored.starts(with: Data("bplist".utf8)))
    }

    @Test func entriesExpireAfterTheirTimeToLive() throws {
        let folder = TemporaryDirectory("ttl")
        let env = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, testEnvironment: env)
        try cache.setData(testBytes(30_000), forKey: "file", expiresAfter: .seconds(10))
        try cache.setData(testBytes(10), forKey: "inline", expiresAfter: .seconds(10))
        try cache.setData(testBytes(10), forKey: "forever")
        env.advance(by: .seconds(5))
        #expect(try cache.contains("file"))
        #expect(try cache.data(forKey: "inline") != nil)
        let entry = try #require(try cache.entry(forKey: "inline"))
        #expect(entry.expirationDate == Date(milliseconds: env.milliseconds.load(ordering: .relaxed) + 5_000))
        env.advance(by: .seconds(5))
        #expect(try !cache.contains("file"))
        #expect(try cache.data(forKey: "file") == nil)
        try cache.removeExpiredValues()
        #expect(try cache.totalCount == 1)
        #expect(cache.dataFileNames.isEmpty)
        #expect(try cache.data(forKey: "forever") != nil)
    }

    /// Setting an entry's expiration date beyond what milliseconds in an `Int64` reach trapped.
    @Test func anEntrysExpirationDateSaturatesBeyondAnyClock() throws {
        let folder = TemporaryDirectory("entry-date")
        let cache = try DiskCache(path: folder.path)
        try cache.setData(testBytes(10), forKey: "k")
        var entry = try #require(try cache.entry(forKey: "k"))
        entry.expirationDate = Date(timeIntervalSince1970: 1e300)
        #expect(entry.expirationDate == Date(milliseconds: .max))
        entry.expirationDate = Date(timeIntervalSince1970: -.infinity)
        #expect(entry.expirationDate == Date(milliseconds: .min))
        entry.expirationDate = Date(timeIntervalSince1970: 1_000)
        #expect(entry.expirationDate == Date(timeIntervalSince1970: 1_000))
    }

    @Test func trimsToCountInLeastRecentlyUsedOrder() throws {
        let folder = TemporaryDirectory("trimcount")
        let env = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, testEnvironment: env)
        cache.accessTimeResolution = .zero
        for i in 0..<10 {
            try cache.setData(testBytes(i.isMultiple(of: 3) ? 30_000 : 100), forKey: "\(i)")
            env.advance(by: .milliseconds(1))
        }
        _ = try cache.data(forKey: "0")  // 0 becomes the most recent (recorded in a batch)
        env.advance(by: .milliseconds(1))
        try cache.trim(toCount: 5)
        #expect(try cache.totalCount == 5)
        for key in ["0", "6", "7", "8", "9"] { #expect(try cache.contains(key), "\(key)") }
        #expect(cache.dataFileNames == cache.referencedFileNames)
        #expect(cache.statistics.evictions == 5)
    }

    @Test func readsWithinTheResolutionDoNotMoveTheAccessTime() throws {
        let folder = TemporaryDirectory("resolution")
        let env = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, testEnvironment: env)
        #expect(cache.accessTimeResolution == .seconds(1))
        try cache.setData(testBytes(10), forKey: "old")
        try cache.setData(testBytes(10), forKey: "new")
        let written = env.milliseconds.load(ordering: .relaxed)
        env.advance(by: .milliseconds(500))
        #expect(try cache.entry(forKey: "old")?.lastAccessDate == Date(milliseconds: written))  // not recorded
        env.advance(by: .milliseconds(600))
        #expect(try cache.entry(forKey: "old")?.lastAccessDate == Date(milliseconds: written + 1_100))
        try cache.trim(toCount: 1)  // "old" was read more recently than "new" was written
        #expect(try cache.contains("old"))
        #expect(try !cache.contains("new"))
    }

    @Test func trimsToCostAndAge() throws {
        let folder = TemporaryDirectory("trimcost")
        let env = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, testEnvironment: env)
        for i in 0..<10 {
            try cache.setData(testBytes(25_000), forKey: "\(i)")
            env.advance(by: .seconds(1))
        }
        try cache.trim(toCost: 120_000)
        #expect(try cache.totalCost == 100_000)
        #expect(try !cache.contains("5"))
        #expect(try cache.contains("6"))
        try cache.trim(toAge: .milliseconds(2_500))  // 8 and 9 were written 2 s and 1 s ago
        #expect(try cache.totalCount == 2)
        #expect(try cache.contains("8"))
        #expect(cache.dataFileNames.count == 2)
        try cache.trim(toCost: 0)
        #expect(try cache.totalCount == 0)
    }

    @Test func periodicTrimAppliesEveryLimit() async throws {
        let folder = TemporaryDirectory("autotrim")
        let cache = try DiskCache(path: folder.path)
        for i in 0..<20 { try await cache.setData(testBytes(100), forKey: "\(i)") }
        cache.countLimit = 5
        cache.autoTrimInterval = .milliseconds(20)
        let deadline = ContinuousClock.now + .seconds(10)
        while try await cache.totals().count > 5, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await cache.totals().count == 5)
    }

    @Test func releasedCacheStopsItsTrimTimerAndClosesTheFolder() async throws {
        let folder = TemporaryDirectory("release")
        weak var weakCore: DiskCacheCore?
        do {
            let cache = try DiskCache(path: folder.path)
            cache.autoTrimInterval = .milliseconds(5)
            try await cache.setData(testBytes(10), forKey: "k")
            try await cache.setData(testBytes(10), forKey: "soon", expiresAfter: .milliseconds(1))
            weakCore = cache.core
            // Wait for the event: the timer has run once it has swept the expired value.
            await waitUntil { cache.statistics.evictions > 0 }
            #expect(cache.statistics.evictions == 1)
        }
        // The timer holds the core weakly: dropping the last DiskCache deallocates it.
        await waitUntil { weakCore == nil }
        #expect(weakCore == nil)
        // Closing flushed and checkpointed: a new opening sees the value.
        let reopened = try DiskCache(path: folder.path)
        #expect(try await reopened.data(forKey: "k") == testBytes(10))
    }

    @Test func freeDiskSpaceFloorEvictsTheShortfall() throws {
        let folder = TemporaryDirectory("floor")
        let env = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, testEnvironment: env)
        for i in 0..<10 {
            try cache.setData(testBytes(10_000), forKey: "\(i)")
            env.advance(by: .milliseconds(1))
        }
        env.freeBytes.store(1_000_000, ordering: .relaxed)
        try cache.trim(toFreeDiskSpace: 500_000)  // enough space: nothing goes
        #expect(try cache.totalCount == 10)
        cache.freeDiskSpaceLimit = 1_035_000  // 35,000 short: four values go
        cache.trimToLimits()
        #expect(try cache.totalCount == 6)
        #expect(try !cache.contains("3"))
        #expect(try cache.contains("4"))
    }

    @Test func countsHitsMissesAndPersistsThemAcrossOpens() throws {
        let folder = TemporaryDirectory("counters")
        do {
            let cache = try DiskCache(path: folder.path)
            try cache.setData(testBytes(10), forKey: "k")
            _ = try cache.data(forKey: "k")
            _ = try cache.data(forKey: "k")
            _ = try cache.data(forKey: "none")
            #expect(cache.statistics == CacheStatistics(hits: 2, misses: 1, evictions: 0))
            #expect(try cache.lifetimeStatistics == CacheStatistics(hits: 2, misses: 1, evictions: 0))
        }
        let reopened = try DiskCache(path: folder.path)
        #expect(reopened.statistics == CacheStatistics())
        _ = try reopened.data(forKey: "k")
        #expect(try reopened.lifetimeStatistics == CacheStatistics(hits: 3, misses: 1, evictions: 0))
        try reopened.flush()
        #expect(try reopened.lifetimeStatistics == CacheStatistics(hits: 3, misses: 1, evictions: 0))
    }

    @Test func removeAllEmptiesTheCacheAtOnceAndTheTrashInTheBackground() async throws {
        let folder = TemporaryDirectory("removeall")
        let cache = try DiskCache(path: folder.path)
        for i in 0..<100 { try await cache.setData(testBytes(21_000 + i), forKey: "\(i)") }
        try await cache.removeAll()
        #expect(try cache.totalCount == 0)
        #expect(cache.dataFileNames.isEmpty)
        try await cache.setData(testBytes(30_000), forKey: "after")
        #expect(try await cache.data(forKey: "after") == testBytes(30_000))
    }

    @Test func removeAllReportsProgressWithoutHoldingTheLock() async throws {
        let folder = TemporaryDirectory("progress")
        let cache = try DiskCache(path: folder.path)
        for i in 0..<300 { try await cache.setData(testBytes(21_000 + i), forKey: "\(i)") }
        let reports = Locked<[(Int, Int)]>([])
        try await cache.removeAll { removed, total in
            // Calling the cache from the callback must not deadlock (YYCache #131).
            _ = try? cache.contains("0")
            reports.withLock { $0.append((removed, total)) }
        }
        let seen = reports.withLock { $0 }
        #expect(seen.first?.0 == 0)
        #expect(seen.last.map { $0.0 == $0.1 } == true)
        #expect(seen.last?.1 ?? 0 >= 300)
        #expect(seen.map(\.0) == seen.map(\.0).sorted())
        let trash = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/trash")
        #expect(trash.isEmpty)
        #expect(try await cache.totals().count == 0)
    }

    @Test func asyncVariantsMatchTheSynchronousCalls() async throws {
        let folder = TemporaryDirectory("async")
        let cache = try DiskCache(path: folder.path)
        try await cache.setData(testBytes(30_000), forKey: "a", extendedData: Data("x".utf8))
        try await cache.setValue([1, 2, 3], forKey: "b")
        #expect(try await cache.contains("a"))
        #expect(try await cache.data(forKey: "a") == testBytes(30_000))
        #expect(try await cache.extendedData(forKey: "a") == Data("x".utf8))
        #expect(try await cache.entry(forKey: "a")?.data.count == 30_000)
        #expect(try await cache.value([Int].self, forKey: "b") == [1, 2, 3])
        let totals = try await cache.totals()
        #expect(totals.count == 2)
        try await cache.trim(toCount: 1)
        try await cache.trim(toCost: 1_000_000)
        try await cache.trim(toAge: .seconds(3600))
        try await cache.trim(toFreeDiskSpace: 0)
        try await cache.removeExpiredValues()
        #expect(try await cache.totals().count == 1)
        try await cache.removeValue(forKey: "b")
        try await cache.removeValue(forKey: "a")
        try await cache.setData(Data("z".utf8), forKey: "z")
        try await cache.removeAll()
        #expect(try await cache.totals().count == 0)
    }

    @Test func asyncFlushWritesTheCountersAndAsyncTrimAppliesTheLimits() async throws {
        let folder = TemporaryDirectory("asyncflush")
        let cache = try DiskCache(path: folder.path)
        // No periodic trim (which flushes too) between the reads and the flush: under
        // ThreadSanitizer, with the whole suite running, the default 60 s went by and flushed first.
        cache.autoTrimInterval = .seconds(24 * 3600)
        for key in ["a", "b", "c"] { try await cache.setData(testBytes(10), forKey: key) }
        _ = try await cache.data(forKey: "a")
        _ = try await cache.data(forKey: "missing")
        let persisted = { () throws -> CacheStatistics in
            try cache.core.withManifest { manifest throws(SQLiteError) in try manifest.persistedCounters() }
        }
        #expect(try persisted().hits == 0, "counts wait in memory until a flush")
        try await cache.flush()
        #expect(try persisted().hits == 1)
        #expect(try persisted().misses == 1)
        #expect(try cache.lifetimeStatistics.hits == 1, "and are not counted twice")
        cache.countLimit = 1
        await cache.trimToLimits()
        #expect(try await cache.totals().count == 1)
    }

    @Test func concurrentFlushesAddEachCountOnce() throws {
        let folder = TemporaryDirectory("flushrace")
        let cache = try DiskCache(path: folder.path)
        cache.autoTrimInterval = .seconds(24 * 3600)
        try cache.setData(testBytes(10), forKey: "a")
        _ = try cache.data(forKey: "a")
        _ = try cache.data(forKey: "missing")
        // Flushes from many threads at once (an explicit one racing the periodic one, say): each
        // count reaches the manifest once, however the flushes interleave.
        DispatchQueue.concurrentPerform(iterations: 16) { _ in try? cache.flush() }
        let persisted = try cache.core.withManifest { manifest throws(SQLiteError) in try manifest.persistedCounters() }
        #expect(persisted.hits == 1)
        #expect(persisted.misses == 1)
        #expect(try cache.lifetimeStatistics.hits == 1)
    }

    @Test func reopeningSweepsOrphanFilesAndRowsWithoutFiles() throws {
        let folder = TemporaryDirectory("sweep")
        var keep: String?
        do {
            let cache = try DiskCache(path: folder.path)
            try cache.setData(testBytes(30_000, seed: 1), forKey: "kept")
            try cache.setData(testBytes(30_000, seed: 2), forKey: "lost")
            keep = cache.dataFileNames.first { name in
                (try? Data(contentsOf: URL(fileURLWithPath: folder.path + "/data/" + name))) == testBytes(30_000, seed: 1)
            }
        }
        let data = folder.path + "/data/"
        for name in try FileManager.default.contentsOfDirectory(atPath: data) where name != keep {
            try FileManager.default.removeItem(atPath: data + name)  // "lost" loses its file
        }
        try testBytes(5).write(to: URL(fileURLWithPath: data + "orphan"))  // a file no row names
        let cache = try DiskCache(path: folder.path)
        #expect(cache.dataFileNames == [keep!])
        #expect(try cache.totalCount == 1)
        #expect(try cache.data(forKey: "kept") == testBytes(30_000, seed: 1))
    }

    @Test func aMissingFileReadsAsAbsentAndDropsItsRow() throws {
        let folder = TemporaryDirectory("missing")
        let (logger, log) = CapturingLogHandler.logger()
        let cache = try DiskCache(path: folder.path, logger: logger)
        try cache.setData(testBytes(30_000), forKey: "k")
        for name in cache.dataFileNames { try FileManager.default.removeItem(atPath: folder.path + "/data/" + name) }
        #expect(try cache.data(forKey: "k") == nil)
        #expect(try cache.totalCount == 0)
        #expect(log.contains(level: .warning, "missing"))
    }

    @Test(arguments: [10, 30_001])
    func aValueFileOfTheWrongSizeReadsAsAbsentAndIsDropped(damagedSize: Int) throws {
        // Cut short or grown outside the cache: the bytes it read were returned as the value.
        let folder = TemporaryDirectory("damaged")
        let (logger, log) = CapturingLogHandler.logger()
        let cache = try DiskCache(path: folder.path, logger: logger)
        try cache.setData(testBytes(30_000), forKey: "k")
        try cache.setData(testBytes(30_000, seed: 1), forKey: "kept")
        let file = try #require(
            cache.dataFileNames.first { name in
                FileManager.default.contents(atPath: folder.path + "/data/" + name) == testBytes(30_000)
            })
        #expect(truncate(folder.path + "/data/" + file, off_t(damagedSize)) == 0)
        #expect(try cache.data(forKey: "k") == nil)
        #expect(try cache.totalCount == 1)
        #expect(!cache.dataFileNames.contains(file))
        #expect(log.contains(level: .warning, "wrong size"))
        #expect(try cache.data(forKey: "kept") == testBytes(30_000, seed: 1))
    }
}

/// `removeAll` moves `data/` to the trash in one step; a write of a large value writes its file
/// before it commits its row. A `removeAll` in between took the new file with it, and the write
/// that committed after it left a row without a file: the value was lost although `setData`
/// succeeded after the removal.
@Suite struct DiskCacheRemoveAllRaceTests {
    @Test func aFileWriteCommittedAfterARemoveAllKeepsItsFile() throws {
        let folder = TemporaryDirectory("remove-all-race")
        let cache = try DiskCache(path: folder.path, inlineThreshold: 16)
        let value = testBytes(4096)
        let done = Atomic(false)
        let remover = Thread {
            while !done.load(ordering: .relaxed) { try? cache.removeAll() }
        }
        remover.start()
        defer { done.store(true, ordering: .relaxed) }
        let deadline = ContinuousClock.now + CacheConcurrencyTests.duration
        var writes = 0, lost = 0
        while ContinuousClock.now < deadline {
            let key = "k\(writes)"
            try cache.setData(value, forKey: key)
            writes += 1
            // A removeAll after this write takes the row and the file together; a row whose file
            // is gone can only come from one before it. Both are looked at under the manifest's
            // lock, which a removeAll of this process holds while it moves the files.
            let isLost = try cache.core.withManifest { manifest throws(SQLiteError) in
                guard let name = try manifest.row(forKey: key)?.fileName else { return false }
                return !FileManager.default.fileExists(atPath: cache.core.files.path(of: name))
            }
            if isLost { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of \(writes) writes lost their file")
        #expect(writes > 100)
    }
}

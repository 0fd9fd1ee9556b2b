import CSQLite
import Foundation
import TestSupport
import Testing

@testable import YYCache

/// The manifest's row count and total size are counted once and then kept up to date with the
/// connection's own changes, not counted by a scan of every row each time; they must stay what a
/// scan would say, whoever writes the folder.
@Suite struct ManifestTotalsTests {
    /// The totals the manifest keeps, and what a scan of it says.
    func totals(_ cache: DiskCache) throws -> (kept: [Int64], scanned: [Int64]) {
        try cache.core.withManifest { manifest throws(SQLiteError) in
            let scan = try manifest.connection.statement("SELECT count(*), coalesce(sum(size), 0) FROM manifest")
            defer { scan.reset() }
            _ = try scan.step()
            let scanned = [scan.int64(0), scan.int64(1)]
            return ([try manifest.count, try manifest.totalSize], scanned)
        }
    }

    @Test func theTotalsFollowEveryKindOfWriteAndRemoval() throws {
        let folder = TemporaryDirectory("totals")
        let clock = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, inlineThreshold: 100, testEnvironment: clock)
        #expect(try totals(cache).kept == [0, 0])  // counted now; what follows is kept up to date
        for index in 0..<20 { try cache.setData(testBytes(10 * index + 1), forKey: "k\(index)") }
        // Replacements that change the size, inline to file and back.
        try cache.setData(testBytes(500), forKey: "k1")
        try cache.setData(testBytes(3), forKey: "k15")
        try cache.setData(testBytes(7), forKey: "k2", expiresAfter: .seconds(1))
        try cache.removeValue(forKey: "k3")
        try cache.removeValue(forKey: "absent")
        var (kept, scanned) = try totals(cache)
        #expect(kept == scanned)
        #expect(kept[0] == 19)

        clock.advance(by: .seconds(2))
        try cache.removeExpiredValues()
        try cache.trim(toCount: 15)
        try cache.trim(toCost: 600)
        (kept, scanned) = try totals(cache)
        #expect(kept == scanned)
        #expect(kept[1] <= 600)

        try cache.removeAll()
        (kept, scanned) = try totals(cache)
        #expect(kept == [0, 0])
        #expect(scanned == [0, 0])
        // Counted once, at the start: every change since was this connection's own.
        #expect(try cache.core.withManifest { manifest throws(SQLiteError) in manifest.totalsScans } == 1)
    }

    /// Another process writes the folder: its commits change SQLite's `data_version`, and the
    /// totals are counted again.
    @Test func rowsWrittenThroughAnotherConnectionAreCounted() throws {
        let folder = TemporaryDirectory("totals-other")
        let cache = try DiskCache(path: folder.path)
        try cache.setData(testBytes(10), forKey: "mine")
        #expect(try totals(cache).kept == [1, 10])
        try withOtherConnection(folder) { db in
            sqlite3_exec(
                db,
                """
                INSERT INTO manifest (key, size, inline_data, modification_time, last_access_time)
                VALUES (x'6f74686572', 4, x'01020304', 1, 1);
                UPDATE manifest SET size = 12 WHERE key = CAST('mine' AS BLOB);
                """, nil, nil, nil)
        }
        let (kept, scanned) = try totals(cache)
        #expect(kept == scanned)
        #expect(kept == [2, 16])
        #expect(try cache.core.withManifest { manifest throws(SQLiteError) in manifest.totalsScans } == 2)
    }

    /// A change made in a transaction that rolled back was counted but never happened.
    @Test func aRolledBackChangeIsNotCounted() throws {
        let folder = TemporaryDirectory("totals-rollback")
        let cache = try DiskCache(path: folder.path)
        try cache.setData(testBytes(10), forKey: "kept")
        #expect(try totals(cache).kept == [1, 10])
        struct Abandon: Error {}
        try cache.core.withManifest { manifest throws(SQLiteError) in
            _ = try? manifest.connection.transaction { () throws(SQLiteError) in
                _ = try manifest.save(
                    key: "gone", fileName: nil, size: 50, inlineData: testBytes(50), extendedData: nil,
                    expirationTime: nil, now: 1)
                _ = try manifest.remove(key: "kept")
                throw SQLiteError(code: SQLITE_ABORT, message: "abandoned by the test", context: "test")
            }
        }
        let (kept, scanned) = try totals(cache)
        #expect(kept == scanned)
        #expect(kept == [1, 10])
    }

    /// Trims read the least recently used rows from the access-time index, with nothing to sort:
    /// the trim by size summed a window over every row, and both sorted ties by key.
    @Test func trimsWalkTheAccessTimeIndexWithoutSortingTheTable() throws {
        let folder = TemporaryDirectory("totals-plan")
        let cache = try DiskCache(path: folder.path)
        for sql in [Manifest.removeLeastRecentlyUsedSQL, Manifest.leastRecentlyUsedFirstSQL] {
            let plan = try cache.core.withManifest { manifest throws(SQLiteError) -> [String] in
                let statement = try manifest.connection.statement("EXPLAIN QUERY PLAN " + sql)
                defer { statement.reset() }
                var details: [String] = []
                while try statement.step() { details.append(statement.text(3) ?? "") }
                return details
            }
            #expect(plan.contains { $0.contains("INDEX manifest_last_access_time") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test func aTrimByCostRemovesTheLeastRecentlyUsedFirst() throws {
        let folder = TemporaryDirectory("totals-order")
        let clock = DiskTestEnvironment()
        let cache = try DiskCache(path: folder.path, testEnvironment: clock)
        for index in 0..<5 {
            try cache.setData(testBytes(100), forKey: "k\(index)")
            clock.advance(by: .seconds(3600))
        }
        _ = try cache.data(forKey: "k0")  // now the most recently used (an hour is past any access-time resolution)
        try cache.trim(toCost: 250)
        #expect(try cache.totalCost == 200)
        #expect(try cache.contains("k0"))
        #expect(try cache.contains("k4"))
        #expect(try !cache.contains("k1"))
    }

    private func withOtherConnection(_ folder: TemporaryDirectory, _ body: (OpaquePointer) -> Void) throws {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        try #require(sqlite3_open_v2(folder.path + "/manifest.sqlite", &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        sqlite3_busy_timeout(db, 10_000)
        body(try #require(db))
    }
}

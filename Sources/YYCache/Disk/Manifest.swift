import CSQLite
import Foundation

/// The SQLite table that indexes a disk cache: one row per key, the single source of truth.
///
/// A row holds the value inline (small values) or the name of its file in `data/` (large values),
/// its size, times in milliseconds since 1970 (64-bit) and optional extended data and expiry.
/// Keys are stored as BLOBs of their UTF-8 bytes, so any string (NUL, `/`, `..`, any Unicode) is
/// just data. Reading does not write: access times are collected in memory and written in batches.
///
/// Not thread-safe: ``DiskCacheCore`` serialises every call.
final class Manifest {
    static let schemaVersion: Int64 = 1

    /// What a lookup returns.
    struct Row {
        var fileName: String?
        var size: Int64
        var inlineData: Data?
        var expirationTime: Int64?
        var extendedData: Data?
        var modificationTime: Int64 = 0
        var lastAccessTime: Int64 = 0
    }

    /// Files and sizes of rows removed in one operation: the files are deleted after the commit.
    struct Removal {
        var fileNames: [String] = []
        var count = 0
        var size: Int64 = 0

        /// Adds the rows of `other`.
        mutating func add(_ other: Removal) {
            fileNames += other.fileNames
            count += other.count
            size += other.size
        }
    }

    let connection: SQLiteConnection
    /// Access times not yet written, by key; flushed in one transaction.
    private var pendingAccess: [String: Int64] = [:]
    static let pendingAccessFlushCount = 1024

    /// Opens the manifest at `path`, creating the schema if needed.
    ///
    /// - Throws: a corruption error (``SQLiteError/isCorruption``) when the file is not a usable
    ///   manifest, so that the caller can rebuild it.
    init(path: String) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path, busyTimeout: .seconds(10))
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute(
            """
            PRAGMA synchronous = NORMAL;
            PRAGMA temp_store = MEMORY;
            PRAGMA cache_size = -8192;
            PRAGMA mmap_size = 67108864;
            """)
        let version = try Self.userVersion(connection)
        guard version == 0 || version == Self.schemaVersion else {
            throw SQLiteError(
                code: SQLITE_NOTADB, message: "unknown manifest schema version \(version)",
                context: "open \(path)")
        }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS manifest (
                key BLOB NOT NULL PRIMARY KEY,
                filename TEXT,
                size INTEGER NOT NULL,
                inline_data BLOB,
                modification_time INTEGER NOT NULL,
                last_access_time INTEGER NOT NULL,
                expiration_time INTEGER,
                extended_data BLOB,
                -- Set by `save` to the file name a replacement superseded; read back by RETURNING.
                replaced_filename TEXT
            );
            CREATE INDEX IF NOT EXISTS manifest_last_access_time ON manifest(last_access_time);
            CREATE INDEX IF NOT EXISTS manifest_expiration_time ON manifest(expiration_time)
                WHERE expiration_time IS NOT NULL;
            CREATE TABLE IF NOT EXISTS counters (name TEXT NOT NULL PRIMARY KEY, value INTEGER NOT NULL);
            PRAGMA user_version = \(Self.schemaVersion);
            """)
    }

    private static func userVersion(_ connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        let statement = try connection.statement("PRAGMA user_version")
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    // MARK: Reading

    /// The row for `key`, without extended data unless `includingExtendedData`.
    func row(forKey key: String, includingExtendedData: Bool = false) throws(SQLiteError) -> Row? {
        let sql =
            includingExtendedData
            ? "SELECT filename, size, inline_data, expiration_time, last_access_time, extended_data, modification_time FROM manifest WHERE key = ?1"
            : "SELECT filename, size, inline_data, expiration_time, last_access_time FROM manifest WHERE key = ?1"
        let statement = try connection.statement(sql)
        return try Self.withKey(key, statement) { () throws(SQLiteError) -> Row? in
            guard try statement.step() else { return nil }
            var row = Row(
                fileName: statement.text(0), size: statement.int64(1), inlineData: statement.data(2),
                expirationTime: statement.optionalInt64(3))
            row.lastAccessTime = max(statement.int64(4), pendingAccess[key] ?? 0)
            if includingExtendedData {
                row.extendedData = statement.data(5)
                row.modificationTime = statement.int64(6)
            }
            return row
        }
    }

    /// The expiry of `key` if a row exists: `.some(nil)` for a row that never expires.
    func expiration(forKey key: String) throws(SQLiteError) -> Int64?? {
        let statement = try connection.statement("SELECT expiration_time FROM manifest WHERE key = ?1")
        return try Self.withKey(key, statement) { () throws(SQLiteError) -> Int64?? in
            guard try statement.step() else { return .none }
            return .some(statement.optionalInt64(0))
        }
    }

    /// Remembers that `key` was read at `time`; written later in a batch.
    func noteAccess(_ key: String, at time: Int64) throws(SQLiteError) {
        pendingAccess[key] = time
        if pendingAccess.count >= Self.pendingAccessFlushCount { try flushAccessTimes() }
    }

    /// Writes the remembered access times in one transaction.
    func flushAccessTimes() throws(SQLiteError) {
        guard !pendingAccess.isEmpty else { return }
        let pending = pendingAccess
        pendingAccess.removeAll(keepingCapacity: true)
        try connection.transaction { () throws(SQLiteError) in
            let statement = try connection.statement(
                "UPDATE manifest SET last_access_time = ?2 WHERE key = ?1 AND last_access_time < ?2")
            for (key, time) in pending {
                statement.bind(time, at: 2)
                try Self.withKey(key, statement) { () throws(SQLiteError) in try statement.run() }
            }
        }
    }

    /// The hit, miss and eviction counts persisted by every process that used this folder.
    func persistedCounters() throws(SQLiteError) -> CacheStatistics {
        let statement = try connection.statement("SELECT name, value FROM counters")
        var counters = CacheStatistics()
        while try statement.step() {
            let value = Int(statement.int64(1))
            switch statement.text(0) {
            case "hits": counters.hits = value
            case "misses": counters.misses = value
            case "evictions": counters.evictions = value
            default: continue
            }
        }
        return counters
    }

    /// Adds `delta` to the persisted counters.
    func addToCounters(_ delta: CacheStatistics) throws(SQLiteError) {
        guard delta != CacheStatistics() else { return }
        try connection.transaction { () throws(SQLiteError) in
            let statement = try connection.statement(
                """
                INSERT INTO counters (name, value) VALUES (?1, ?2)
                ON CONFLICT(name) DO UPDATE SET value = value + excluded.value
                """)
            for (name, value) in [("hits", delta.hits), ("misses", delta.misses), ("evictions", delta.evictions)] where value != 0 {
                statement.bind(name, at: 1)
                statement.bind(Int64(value), at: 2)
                try statement.run()
                statement.reset()
            }
        }
    }

    /// A row count and a total size.
    struct Totals: Equatable {
        var count: Int64 = 0
        var size: Int64 = 0
    }

    /// The totals as last counted, kept up to date with this connection's own changes since, and
    /// what tells whether they still hold: SQLite's `data_version` (which changes when another
    /// connection, of this process or another, commits) and the connection's rollback count (a
    /// change made in a transaction that rolled back was counted but did not happen). `nil`
    /// until first asked, and after a change whose effect on them is not known.
    private var knownTotals: (totals: Totals, dataVersion: Int64, rollbacks: Int)?
    /// How many times the totals were counted by a scan of the table.
    private(set) var totalsScans = 0

    /// The number of rows and the sum of their sizes.
    ///
    /// Counted by a scan of the table only when this connection has not counted since another
    /// connection committed (or never). `sum(size)` reads every row, its inline value's page
    /// included: 50 ms for 80,000 values of 10 KB. The image pipeline asks after each write it
    /// makes to enforce its cost limit, and its writes slowed down as the cache grew. Triggers
    /// that keep the totals in a table would make every write dirty one more page: a fifth of
    /// the throughput of small writes, measured.
    var totals: Totals {
        get throws(SQLiteError) {
            let dataVersion = try scalar("PRAGMA data_version")
            if let known = knownTotals, known.dataVersion == dataVersion, known.rollbacks == connection.rollbacks {
                return known.totals
            }
            let scan = try connection.statement("SELECT count(*), coalesce(sum(size), 0) FROM manifest")
            defer { scan.reset() }
            _ = try scan.step()
            let totals = Totals(count: scan.int64(0), size: scan.int64(1))
            totalsScans += 1
            knownTotals = (totals, dataVersion, connection.rollbacks)
            return totals
        }
    }

    /// The number of rows.
    var count: Int64 {
        get throws(SQLiteError) { try totals.count }
    }

    /// The sum of the rows' sizes.
    var totalSize: Int64 {
        get throws(SQLiteError) { try totals.size }
    }

    /// Counts a change this connection made into the known totals.
    private func adjustTotals(count: Int64, size: Int64) {
        knownTotals?.totals.count += count
        knownTotals?.totals.size += size
    }

    /// Counts rows this connection removed out of the known totals.
    private func adjustTotals(removing removal: Removal) {
        adjustTotals(count: -Int64(removal.count), size: -removal.size)
    }

    /// Every file name the manifest refers to.
    func referencedFileNames() throws(SQLiteError) -> Set<String> {
        let statement = try connection.statement("SELECT filename FROM manifest WHERE filename IS NOT NULL")
        var names = Set<String>()
        while try statement.step() {
            if let name = statement.text(0) { names.insert(name) }
        }
        return names
    }

    // MARK: Writing

    /// Inserts or replaces the row for `key`; returns the file name of the replaced row, if any,
    /// which the caller deletes once this has committed.
    ///
    /// One statement writes the row: in `DO UPDATE SET` the right-hand sides read the old row, so
    /// `replaced_filename = filename` captures the old file name and `RETURNING` hands it back.
    func save(
        key: String, fileName: String?, size: Int64, inlineData: Data?, extendedData: Data?,
        expirationTime: Int64?, now: Int64
    ) throws(SQLiteError) -> String? {
        // The replaced row's size, for the known totals (not read when nobody asked for them). If
        // another connection changes the row before the write, `data_version` changes too, and
        // the totals are counted again when next asked.
        let replacedSize: Int64?? = knownTotals == nil ? nil : .some(try recordedSize(forKey: key))
        let statement = try connection.statement(
            """
            INSERT INTO manifest
                (key, filename, size, inline_data, modification_time, last_access_time, expiration_time, extended_data)
            VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7)
            ON CONFLICT(key) DO UPDATE SET
                replaced_filename = filename, filename = excluded.filename, size = excluded.size,
                inline_data = excluded.inline_data, modification_time = excluded.modification_time,
                last_access_time = excluded.last_access_time, expiration_time = excluded.expiration_time,
                extended_data = excluded.extended_data
            RETURNING replaced_filename
            """)
        statement.bind(fileName, at: 2)
        statement.bind(size, at: 3)
        statement.bind(inlineData, at: 4)
        statement.bind(now, at: 5)
        statement.bind(expirationTime, at: 6)
        statement.bind(extendedData, at: 7)
        let replaced = try Self.withKey(key, statement) { () throws(SQLiteError) -> String? in
            guard try statement.step() else { return nil }
            let name = statement.text(0)
            while try statement.step() {}
            return name
        }
        pendingAccess[key] = nil
        if let replacedSize { adjustTotals(count: replacedSize == nil ? 1 : 0, size: size - (replacedSize ?? 0)) }
        return replaced
    }

    /// The size recorded for `key`, or `nil` without a row.
    private func recordedSize(forKey key: String) throws(SQLiteError) -> Int64? {
        let statement = try connection.statement("SELECT size FROM manifest WHERE key = ?1")
        return try Self.withKey(key, statement) { () throws(SQLiteError) -> Int64? in
            try statement.step() ? statement.int64(0) : nil
        }
    }

    /// Deletes the row for `key` (only if it still names `fileName`, when given).
    func remove(key: String, ifFileName fileName: String? = nil) throws(SQLiteError) -> Removal {
        pendingAccess[key] = nil
        let sql =
            fileName == nil
            ? "DELETE FROM manifest WHERE key = ?1 RETURNING filename, size"
            : "DELETE FROM manifest WHERE key = ?1 AND filename = ?2 RETURNING filename, size"
        let statement = try connection.statement(sql)
        statement.bind(fileName, at: 2)
        return try Self.withKey(key, statement) { () throws(SQLiteError) -> Removal in try collect(statement) }
    }

    /// Deletes every row; returns how many there were.
    func removeAll() throws(SQLiteError) -> Int {
        pendingAccess.removeAll()
        let statement = try connection.statement("DELETE FROM manifest")
        try statement.run()
        knownTotals?.totals = Totals()
        return connection.changes
    }

    // The least recently used rows are read in the order of the access-time index, whose entries
    // are (last_access_time, rowid): ties go by rowid, so nothing is sorted, and a trim reads only
    // the rows it removes. The trim by size summed a window over every row of the table (each read
    // with its inline value) to remove a few, and both trims sorted ties by key.

    /// Deletes the `?1` least recently used rows.
    static let removeLeastRecentlyUsedSQL = """
        DELETE FROM manifest WHERE rowid IN (SELECT rowid FROM manifest ORDER BY last_access_time, rowid LIMIT ?1)
        RETURNING filename, size
        """

    /// Every row, least recently used first.
    static let leastRecentlyUsedFirstSQL = "SELECT rowid, size FROM manifest ORDER BY last_access_time, rowid"

    /// Deletes the `count` least recently used rows.
    func removeLeastRecentlyUsed(count: Int64) throws(SQLiteError) -> Removal {
        try flushAccessTimes()
        let statement = try connection.statement(Self.removeLeastRecentlyUsedSQL)
        statement.bind(count, at: 1)
        defer { statement.reset() }
        return try collect(statement)
    }

    /// Deletes the shortest run of least recently used rows whose sizes add up to at least `size`.
    /// Call inside a transaction, so that the rows read are the rows deleted.
    func removeLeastRecentlyUsed(size: Int64) throws(SQLiteError) -> Removal {
        try flushAccessTimes()
        let oldest = try connection.statement(Self.leastRecentlyUsedFirstSQL)
        var rowids: [Int64] = []
        var found: Int64 = 0
        do {
            defer { oldest.reset() }
            while found < size, try oldest.step() {
                rowids.append(oldest.int64(0))
                found += oldest.int64(1)
            }
        }
        let delete = try connection.statement("DELETE FROM manifest WHERE rowid = ?1 RETURNING filename, size")
        var removal = Removal()
        for rowid in rowids {
            delete.bind(rowid, at: 1)
            defer { delete.reset() }
            removal.add(try collect(delete))
        }
        return removal
    }

    /// Deletes rows last used before `time`.
    func removeAccessed(before time: Int64) throws(SQLiteError) -> Removal {
        try flushAccessTimes()
        let statement = try connection.statement(
            "DELETE FROM manifest WHERE last_access_time < ?1 RETURNING filename, size")
        statement.bind(time, at: 1)
        defer { statement.reset() }
        return try collect(statement)
    }

    /// Deletes rows whose expiry is at or before `time`.
    func removeExpired(at time: Int64) throws(SQLiteError) -> Removal {
        let statement = try connection.statement(
            "DELETE FROM manifest WHERE expiration_time <= ?1 RETURNING filename, size")
        statement.bind(time, at: 1)
        defer { statement.reset() }
        return try collect(statement)
    }

    /// Deletes rows whose file is not among `existing` (the file was lost or never finished).
    func removeRows(withFilesMissingFrom existing: Set<String>) throws(SQLiteError) -> Int {
        let missing = try referencedFileNames().subtracting(existing)
        guard !missing.isEmpty else { return 0 }
        try connection.transaction { () throws(SQLiteError) in
            let statement = try connection.statement("DELETE FROM manifest WHERE filename = ?1")
            for name in missing {
                statement.bind(name, at: 1)
                try statement.run()
                statement.reset()
            }
        }
        knownTotals = nil  // which rows went is not known here: counted again when asked
        return missing.count
    }

    // MARK: Helpers

    private func scalar(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : 0
    }

    private func collect(_ statement: SQLiteStatement) throws(SQLiteError) -> Removal {
        var removal = Removal()
        while try statement.step() {
            if let name = statement.text(0) { removal.fileNames.append(name) }
            removal.size += statement.int64(1)
            removal.count += 1
        }
        adjustTotals(removing: removal)
        return removal
    }

    /// Binds `key`'s UTF-8 bytes (of its ``CanonicalKey`` form) as parameter 1 without copying
    /// them, for the duration of `body`.
    private static func withKey<R>(
        _ key: String, _ statement: SQLiteStatement,
        _ body: () throws(SQLiteError) -> R
    ) throws(SQLiteError) -> R {
        var key = CanonicalKey.of(key)
        // `withUTF8` only rethrows untyped errors, so the typed result travels out in a `Result`.
        let result = key.withUTF8 { bytes in
            Result { () throws(SQLiteError) -> R in try statement.withBlob(UnsafeRawBufferPointer(bytes), at: 1, body) }
        }
        return try result.get()
    }
}

import CSQLite
import Foundation

/// An error reported by SQLite: its result code and message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    let context: String

    /// The primary result code: extended codes keep it in their low byte.
    var primaryCode: Int32 { code & 0xFF }

    /// Whether the database file is damaged or not a database at all.
    var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// Whether another connection holds a lock that did not clear within the busy timeout.
    var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// Whether the disk (or a quota) is full.
    var isDiskFull: Bool { primaryCode == SQLITE_FULL }

    /// Whether SQLite may not write the database (a read-only file or folder).
    var isReadOnly: Bool { primaryCode == SQLITE_READONLY }

    /// A file operation around the database failed (reported as SQLite's `SQLITE_IOERR`, so that
    /// it rolls the surrounding transaction back like any other I/O error).
    static func ioError(_ message: String, context: String) -> SQLiteError {
        SQLiteError(code: SQLITE_IOERR, message: message, context: context)
    }

    var description: String { "\(context): SQLite error \(code): \(message)" }
}

/// Deletes a database and its write-ahead log and shared-memory files (`-wal`, `-shm`).
func removeSQLiteDatabaseFiles(at path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe: the owner serialises every call (the connection is opened with `NOMUTEX`).
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    let path: String
    /// How many transactions of ``transaction(_:)`` rolled back: what was counted as changed in
    /// them did not happen.
    private(set) var rollbacks = 0

    /// Opens (creating if needed) the database at `path`.
    init(path: String, busyTimeout: Duration) throws(SQLiteError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard status == SQLITE_OK else {
            let error = SQLiteError(
                code: status, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory",
                context: "open \(path)")
            sqlite3_close_v2(db)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeout.components.seconds * 1000))
    }

    deinit {
        close()
    }

    /// Finalises every statement and closes the connection. Safe to call twice.
    func close() {
        statements.removeAll()  // each statement finalises itself
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one or more SQL statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "connection closed", context: sql) }
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: status, message: text, context: sql)
        }
    }

    /// The cached prepared statement for `sql`, reset and with its bindings cleared.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "connection closed", context: sql) }
        var raw: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard status == SQLITE_OK, let raw else {
            throw SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)), context: sql)
        }
        let statement = SQLiteStatement(raw, connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws. Inside an open
    /// transaction it simply runs `body`, which becomes part of the outer one.
    ///
    /// `IMMEDIATE` takes the write lock up front, so two processes writing at once wait on the busy
    /// timeout instead of failing with a deadlock halfway through.
    func transaction<R>(_ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        if let handle, sqlite3_get_autocommit(handle) == 0 { return try body() }
        // Cached statements: `sqlite3_exec` would parse these three on every write.
        try statement("BEGIN IMMEDIATE").run()
        do {
            let result = try body()
            try statement("COMMIT").run()
            return result
        } catch {
            try? statement("ROLLBACK").run()
            rollbacks += 1
            throw error
        }
    }

    /// The most recent error of this connection, with `context`.
    func lastError(_ status: Int32, context: String) -> SQLiteError {
        SQLiteError(
            code: status, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "connection closed",
            context: context)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int {
        handle.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// Copies WAL content back into the database so the `-wal` file does not grow without bound.
    func checkpoint() {
        guard let handle else { return }
        sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }
}

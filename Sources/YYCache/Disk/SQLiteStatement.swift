import CSQLite
import Foundation

/// A prepared statement: binding, stepping and reading columns.
///
/// Not thread-safe, like its ``SQLiteConnection``. Blobs and text bound here are copied by SQLite
/// (`SQLITE_TRANSIENT`) unless bound through ``withBlob(_:at:_:)``, which keeps the binding only for
/// the duration of the closure.
final class SQLiteStatement {
    private let raw: OpaquePointer
    private unowned let connection: SQLiteConnection
    let sql: String

    /// SQLite's "copy this buffer" destructor, a cast macro that Swift cannot import.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    init(_ raw: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.raw = raw
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(raw)
    }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    // MARK: Binding (parameters are 1-based)

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(raw, index, value)
    }

    func bind(_ value: Int64?, at index: Int32) {
        if let value { sqlite3_bind_int64(raw, index, value) } else { sqlite3_bind_null(raw, index) }
    }

    func bind(_ text: String?, at index: Int32) {
        guard let text else { sqlite3_bind_null(raw, index); return }
        sqlite3_bind_text(raw, index, text, -1, Self.transient)
    }

    /// Binds a copy of `data`; `nil` binds NULL and empty data a zero-length blob (not NULL).
    func bind(_ data: Data?, at index: Int32) {
        guard let data else { sqlite3_bind_null(raw, index); return }
        if data.isEmpty { sqlite3_bind_zeroblob(raw, index, 0); return }
        data.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob64(raw, index, bytes.baseAddress, sqlite3_uint64(bytes.count), Self.transient)
        }
    }

    /// Binds the bytes of `blob` without copying them for the duration of `body`.
    ///
    /// The binding points into `blob`'s storage, so it must be stepped and reset inside `body`;
    /// the statement's bindings are cleared on the way out.
    func withBlob<R>(_ blob: UnsafeRawBufferPointer, at index: Int32, _ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        if let base = blob.baseAddress, blob.count > 0 {
            sqlite3_bind_blob64(raw, index, base, sqlite3_uint64(blob.count), nil)  // nil = SQLITE_STATIC
        } else {
            sqlite3_bind_zeroblob(raw, index, 0)
        }
        defer { reset() }
        return try body()
    }

    // MARK: Stepping

    /// Advances to the next row; `false` when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(raw)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.lastError(status, context: sql)
        }
    }

    /// Steps a statement that returns no rows.
    func run() throws(SQLiteError) {
        _ = try step()
    }

    // MARK: Columns (0-based)

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(raw, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(raw, column)
    }

    func optionalInt64(_ column: Int32) -> Int64? {
        isNull(column) ? nil : int64(column)
    }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(raw, column) else { return nil }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column as `Data`: `nil` for NULL, empty `Data` for a zero-length blob.
    func data(_ column: Int32) -> Data? {
        if isNull(column) { return nil }
        let count = Int(sqlite3_column_bytes(raw, column))
        guard count > 0, let pointer = sqlite3_column_blob(raw, column) else { return Data() }
        return Data(bytes: pointer, count: count)
    }
}

import CSQLiteRaw
import Foundation

/// The floor for the disk cache: a bare SQLite key-value table (WAL, `synchronous=NORMAL`) driven
/// through cached prepared statements, one autocommit statement per operation, values inline.
final class RawSQLiteStore {
    private var db: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?
    private var delete: OpaquePointer?

    init(path: String) {
        precondition(sqlite3_open_v2(path + "/raw.sqlite", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK)
        sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB)", nil, nil, nil)
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO kv (key, value) VALUES (?1, ?2)", -1, &insert, nil)
        sqlite3_prepare_v2(db, "SELECT value FROM kv WHERE key = ?1", -1, &select, nil)
        sqlite3_prepare_v2(db, "DELETE FROM kv WHERE key = ?1", -1, &delete, nil)
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_finalize(select)
        sqlite3_finalize(delete)
        sqlite3_close(db)
    }

    func set(_ key: String, _ value: Data) {
        var key = key
        key.withUTF8 { keyBytes in
            value.withUnsafeBytes { valueBytes in
                sqlite3_bind_text(insert, 1, keyBytes.baseAddress, Int32(keyBytes.count), nil)
                sqlite3_bind_blob(insert, 2, valueBytes.baseAddress, Int32(valueBytes.count), nil)
                precondition(sqlite3_step(insert) == SQLITE_DONE)
                sqlite3_reset(insert)
            }
        }
    }

    func get(_ key: String) -> Data? {
        var key = key
        return key.withUTF8 { keyBytes in
            sqlite3_bind_text(select, 1, keyBytes.baseAddress, Int32(keyBytes.count), nil)
            defer { sqlite3_reset(select) }
            guard sqlite3_step(select) == SQLITE_ROW else { return nil }
            let count = Int(sqlite3_column_bytes(select, 0))
            return Data(bytes: sqlite3_column_blob(select, 0), count: count)
        }
    }

    func remove(_ key: String) {
        var key = key
        key.withUTF8 { keyBytes in
            sqlite3_bind_text(delete, 1, keyBytes.baseAddress, Int32(keyBytes.count), nil)
            _ = sqlite3_step(delete)
            sqlite3_reset(delete)
        }
    }
}

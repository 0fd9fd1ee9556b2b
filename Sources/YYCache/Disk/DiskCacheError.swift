#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What went wrong in a ``DiskCache`` (and the disk side of a ``Cache``).
public enum DiskCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The cache folder path is empty, too long or contains a NUL byte.
    case invalidPath(String, reason: String)
    /// A custom file-name function returned a name that is not a plain file name.
    case invalidFileName(String, reason: String)
    /// The process may not create or write a file or folder.
    case permissionDenied(path: String)
    /// The file system (or a quota) is full.
    case diskFull(path: String)
    /// Another file-system error, with its `errno`.
    case fileSystem(path: String, errno: Int32, message: String)
    /// SQLite reported an error. A damaged database is rebuilt empty before this is thrown.
    case database(code: Int32, message: String)
    /// A `Codable` value could not be encoded or decoded by the cache's coder.
    case coding(key: String, message: String)

    public var description: String {
        switch self {
        case .invalidPath(let path, let reason): "invalid cache path '\(path)': \(reason)"
        case .invalidFileName(let name, let reason): "invalid cache file name '\(name)': \(reason)"
        case .permissionDenied(let path): "permission denied: \(path)"
        case .diskFull(let path): "no space left on device while writing \(path)"
        case .fileSystem(let path, let code, let message): "\(path): \(message) (errno \(code))"
        case .database(let code, let message): "cache database error \(code): \(message)"
        case .coding(let key, let message): "cannot code the value for key '\(key)': \(message)"
        }
    }

    /// Maps an `errno` from a file operation on `path` to the matching case.
    static func fromErrno(_ code: Int32, path: String) -> DiskCacheError {
        switch code {
        case EACCES, EPERM, EROFS: .permissionDenied(path: path)
        case ENOSPC, EDQUOT: .diskFull(path: path)
        default: .fileSystem(path: path, errno: code, message: String(cString: strerror(code)))
        }
    }

    /// Maps a SQLite error, keeping "disk full" recognisable.
    static func fromSQLite(_ error: SQLiteError, path: String) -> DiskCacheError {
        error.isDiskFull ? .diskFull(path: path) : .database(code: error.code, message: error.description)
    }
}

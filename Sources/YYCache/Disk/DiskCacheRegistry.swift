import Foundation
import Logging
import YYDispatch

/// One ``DiskCacheCore`` per folder per process: two `DiskCache`s opened on the same path share it,
/// so there is one connection, one set of limits and one trim timer (YYDiskCache's global map).
enum DiskCacheRegistry {
    private struct WeakCore {
        weak var core: DiskCacheCore?
    }

    /// Canonical path → live core. The lock is held while a core opens, so two threads opening the
    /// same folder cannot both create one.
    private static let cores = Locked<[String: WeakCore]>([:])

    static func core(path: String, logger: Logger, environment: DiskCacheCore.Environment) throws(DiskCacheError) -> DiskCacheCore {
        let canonical = try canonicalPath(path)
        return try cores.withLock { (cores: inout [String: WeakCore]) throws(DiskCacheError) -> DiskCacheCore in
            if let existing = cores[canonical]?.core { return existing }
            let core = try DiskCacheCore(path: canonical, logger: logger, environment: environment)
            cores = cores.filter { $0.value.core != nil }
            cores[canonical] = WeakCore(core: core)
            return core
        }
    }

    /// Checks `path`, creates the folder and resolves symbolic links and `..`, so that two spellings
    /// of one folder map to one core.
    static func canonicalPath(_ path: String) throws(DiskCacheError) -> String {
        if path.isEmpty { throw .invalidPath(path, reason: "empty") }
        if path.utf8.contains(0) { throw .invalidPath(path, reason: "contains a NUL byte") }
        // Leave room for "/data/<name>" below the folder (YYKVStorage's PATH_MAX - 64 rule).
        if path.utf8.count > 4096 - 300 { throw .invalidPath(path, reason: "longer than \(4096 - 300) bytes") }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        try FileStore.makeDirectory(absolute)
        guard let resolved = realpath(absolute, nil) else { throw .fromErrno(errno, path: absolute) }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

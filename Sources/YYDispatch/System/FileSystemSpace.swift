#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The space left on a file system, for code that must not fill one: `DiskCache`'s free-space
/// limit and `yy bench cache`'s check before it writes.
package enum FileSystemSpace {
    /// Bytes an unprivileged process may still write on the file system that holds `path`
    /// (`statvfs`'s available blocks, not the free ones kept for root), or `nil` when `path`
    /// cannot be looked up.
    package static func available(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

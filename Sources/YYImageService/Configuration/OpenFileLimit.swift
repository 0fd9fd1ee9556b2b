import Foundation

extension ImageServiceConfiguration {
    /// 2,048 connections (imgproxy's `IMGPROXY_MAX_CLIENTS`), or fewer when the process's soft
    /// limit on open files would run out first: 64 descriptors stay for the caches, the origins'
    /// connections and the logs.
    static var defaultMaximumConnections: Int {
        guard let files = openFileLimit() else { return 2048 }
        return min(2048, max(16, files - 64))
    }

    /// The process's soft limit on open files, or `nil` when it cannot be read.
    private static func openFileLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc) || canImport(Musl)
        let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let status = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        // Unlimited reads as the largest value, which the 2,048 bounds.
        guard status == 0 else { return nil }
        return Int(clamping: limit.rlim_cur)
    }
}

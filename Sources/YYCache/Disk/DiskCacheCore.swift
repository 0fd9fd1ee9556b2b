import Dispatch
import Foundation
import Logging
import YYDispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of one cache folder shared by every ``DiskCache`` opened on it in this process:
/// the manifest connection, the limits, the counters and the trim timer.
///
/// It holds a shared `flock` on `<path>/lock` while alive. The first process to open a folder gets
/// the lock exclusively for a moment and uses it to sweep orphan files and empty the trash, which
/// is only safe when no other process is writing.
///
/// `@unchecked Sendable` because of one property: the `Manifest` (a SQLite connection, not
/// thread-safe) is reachable only through ``withManifest(_:)``, inside its lock. Everything else is
/// immutable or in a `Locked` of `Sendable` state.
final class DiskCacheCore: @unchecked Sendable {
    /// Time and free-space sources; tests replace them.
    struct Environment: Sendable {
        /// Wall-clock milliseconds since 1970.
        var now: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
        /// Free bytes on the file system holding `path`, or `nil` when unknown.
        var freeSpace: @Sendable (_ path: String) -> Int64? = FileSystemSpace.available(at:)
    }

    struct Limits {
        var count: Int?
        var cost: Int?
        var age: Duration?
        var freeDiskSpace: Int?
        var autoTrimInterval: Duration = .seconds(60)
        var accessTimeResolution: Duration = .seconds(1)
    }

    let path: String
    let files: FileStore
    let logger: Logger
    let environment: Environment
    /// `nil` after a failure that left no usable connection; the next call reopens.
    private let manifest: Locked<Manifest?>
    let limits = Locked(Limits())
    let statistics = Locked(Counters())

    /// This process's counters, and how much of them is already added to the manifest's table.
    struct Counters {
        var session = CacheStatistics()
        var persisted = CacheStatistics()

        var pending: CacheStatistics {
            CacheStatistics(
                hits: session.hits - persisted.hits, misses: session.misses - persisted.misses,
                evictions: session.evictions - persisted.evictions)
        }
    }
    private let lockDescriptor: Int32
    private let trashQueue: DispatchQueue
    private let timer = Locked<WeakTimer?>(nil)

    var manifestPath: String { path + "/manifest.sqlite" }

    init(path: String, logger: Logger, environment: Environment) throws(DiskCacheError) {
        self.path = path
        self.logger = logger
        self.environment = environment
        trashQueue = DispatchQueue(label: "yykit.cache.disk.trash", qos: .utility)
        try FileStore.makeDirectory(path)
        files = try FileStore(root: path)

        let lockPath = path + "/lock"
        lockDescriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockDescriptor >= 0 else { throw .fromErrno(errno, path: lockPath) }
        let alone = flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0
        if !alone {
            // Another process has the folder open; wait for any sweep it is doing, then share.
            while flock(lockDescriptor, LOCK_SH) != 0 && errno == EINTR {}
        }

        let opened: Manifest
        do {
            opened = try Self.openManifest(at: path + "/manifest.sqlite", files: files, logger: logger)
        } catch {
            close(lockDescriptor)
            throw error
        }
        manifest = Locked(opened)

        if alone {
            sweepOrphans()
            flock(lockDescriptor, LOCK_SH)
            emptyTrashInBackground(progress: nil, completion: nil)
        }
        scheduleAutoTrim()
    }

    deinit {
        timer.withLock { $0?.invalidate() }
        let pending = statistics.withLock { $0.pending }
        manifest.withLock { manifest in
            try? manifest?.flushAccessTimes()
            try? manifest?.addToCounters(pending)
            manifest?.connection.checkpoint()
            manifest?.connection.close()
        }
        close(lockDescriptor)
    }

    // MARK: Manifest access

    /// Opens the manifest; a damaged one is deleted and created anew, with its files sent to the trash.
    private static func openManifest(at path: String, files: FileStore, logger: Logger) throws(DiskCacheError) -> Manifest {
        do {
            return try Manifest(path: path)
        } catch  where error.isCorruption {
            logger.error("cache manifest is damaged; rebuilding it empty", metadata: ["path": "\(path)", "error": "\(error)"])
            removeSQLiteDatabaseFiles(at: path)
            try files.moveDataToTrash()
            do {
                return try Manifest(path: path)
            } catch {
                throw mapOpenError(error, path: path)
            }
        } catch {
            throw mapOpenError(error, path: path)
        }
    }

    private static func mapOpenError(_ error: SQLiteError, path: String) -> DiskCacheError {
        // SQLite reports a folder or file it may not write as CANTOPEN or READONLY; say so plainly.
        if access(path, W_OK) != 0 && errno == EACCES || error.isReadOnly {
            return .permissionDenied(path: path)
        }
        return .fromSQLite(error, path: path)
    }

    /// Runs `body` on the manifest under the lock, reopening it if needed. A corruption error
    /// rebuilds the manifest before being thrown, so the next call works on an empty cache.
    func withManifest<R: Sendable>(_ body: (Manifest) throws(SQLiteError) -> R) throws(DiskCacheError) -> R {
        try manifest.withLock { (slot: inout Manifest?) throws(DiskCacheError) -> R in
            let current: Manifest
            if let slot {
                current = slot
            } else {
                current = try Self.openManifest(at: manifestPath, files: files, logger: logger)
                slot = current
            }
            do throws(SQLiteError) {
                return try body(current)
            } catch {
                if error.isCorruption {
                    logger.error(
                        "cache manifest became damaged; rebuilding it empty",
                        metadata: ["path": "\(path)", "error": "\(error)"])
                    current.connection.close()
                    slot = nil
                    removeSQLiteDatabaseFiles(at: manifestPath)
                    try? files.moveDataToTrash()
                } else {
                    logger.warning("cache manifest operation failed", metadata: ["path": "\(path)", "error": "\(error)"])
                }
                throw .fromSQLite(error, path: path)
            }
        }
    }

    // MARK: Trimming

    /// Deletes the files of removed rows and counts them as evictions.
    func finish(_ removal: Manifest.Removal, evicted: Bool) {
        files.remove(removal.fileNames)
        if evicted && removal.count > 0 {
            statistics.withLock { $0.session.evictions += removal.count }
        }
    }

    /// Runs `select` in one write transaction, then deletes the removed rows' files and counts
    /// them as evictions: the shape of every trim.
    private func evict(_ select: (Manifest) throws(SQLiteError) -> Manifest.Removal) throws(DiskCacheError) {
        let removal = try withManifest { manifest throws(SQLiteError) in
            try manifest.connection.transaction { () throws(SQLiteError) in try select(manifest) }
        }
        finish(removal, evicted: true)
    }

    func trim(toCount count: Int) throws(DiskCacheError) {
        try evict { manifest throws(SQLiteError) in
            let excess = try manifest.count - Int64(max(count, 0))
            return excess > 0 ? try manifest.removeLeastRecentlyUsed(count: excess) : Manifest.Removal()
        }
    }

    func trim(toCost cost: Int) throws(DiskCacheError) {
        try evict { manifest throws(SQLiteError) in
            let excess = try manifest.totalSize - Int64(max(cost, 0))
            return excess > 0 ? try manifest.removeLeastRecentlyUsed(size: excess) : Manifest.Removal()
        }
    }

    func trim(toAge age: Duration) throws(DiskCacheError) {
        let cutoff = environment.now() - age.clampedMilliseconds
        try evict { manifest throws(SQLiteError) in try manifest.removeAccessed(before: cutoff) }
    }

    func removeExpired() throws(DiskCacheError) {
        let now = environment.now()
        try evict { manifest throws(SQLiteError) in try manifest.removeExpired(at: now) }
    }

    /// Frees disk space when the file system's free space is below `limit`: evicts least recently
    /// used values worth the shortfall.
    func trim(toFreeDiskSpace limit: Int) throws(DiskCacheError) {
        guard let free = environment.freeSpace(path), free < Int64(limit) else { return }
        let shortfall = Int64(limit) - free
        let total = try withManifest { manifest throws(SQLiteError) in try manifest.totalSize }
        try trim(toCost: Int(max(total - shortfall, 0)))
    }

    /// The periodic trim: expiry, then cost, count, age and free-space limits.
    func trimAutomatically() {
        let limits = self.limits.withLock { $0 }
        do {
            try removeExpired()
            if let cost = limits.cost { try trim(toCost: cost) }
            if let count = limits.count { try trim(toCount: count) }
            if let age = limits.age { try trim(toAge: age) }
            if let floor = limits.freeDiskSpace { try trim(toFreeDiskSpace: floor) }
            try flushPending()
            try withManifest { manifest throws(SQLiteError) in manifest.connection.checkpoint() }
        } catch {
            logger.warning("automatic cache trim failed", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }

    /// Writes batched access times and this process's new counts to the manifest.
    ///
    /// The counts are read, written and marked written under the manifest's lock: two flushes
    /// that read them first (an explicit one and the periodic one) both added them otherwise.
    func flushPending() throws(DiskCacheError) {
        try withManifest { manifest throws(SQLiteError) in
            let snapshot = statistics.withLock { $0 }
            try manifest.flushAccessTimes()
            try manifest.addToCounters(snapshot.pending)
            statistics.withLock { $0.persisted = snapshot.session }
        }
    }

    /// Counters of every process that used the folder, this one's unsaved counts included.
    func lifetimeStatistics() throws(DiskCacheError) -> CacheStatistics {
        // Both under the manifest's lock, so that a flush cannot move counts from one to the other
        // between the two readings.
        try withManifest { manifest throws(SQLiteError) in
            let saved = try manifest.persistedCounters()
            let pending = statistics.withLock { $0.pending }
            return CacheStatistics(
                hits: saved.hits + pending.hits, misses: saved.misses + pending.misses,
                evictions: saved.evictions + pending.evictions)
        }
    }

    func scheduleAutoTrim() {
        let interval = limits.withLock { $0.autoTrimInterval }
        timer.withLock { timer in
            timer?.invalidate()
            timer = WeakTimer(interval: interval, queue: trashQueue, target: self) { $0.trimAutomatically() }
        }
    }

    // MARK: Orphans and trash

    /// Deletes files no row refers to and rows whose file is gone. Only called while this process
    /// holds the folder's lock exclusively: another process's in-flight file would look orphaned.
    private func sweepOrphans() {
        do {
            let existing = Set(try files.fileNames())
            let referenced = try withManifest { manifest throws(SQLiteError) in try manifest.referencedFileNames() }
            let orphans = existing.subtracting(referenced)
            files.remove(orphans)
            let lostRows = try withManifest { manifest throws(SQLiteError) in
                try manifest.removeRows(withFilesMissingFrom: existing)
            }
            if !orphans.isEmpty || lostRows > 0 {
                logger.notice(
                    "swept the cache folder",
                    metadata: [
                        "path": "\(path)", "orphanFiles": "\(orphans.count)", "rowsWithoutFile": "\(lostRows)",
                    ])
            }
        } catch {
            logger.warning("orphan sweep failed", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }

    /// Empties `trash/` on the trash queue. Callbacks run on that queue, with no lock held.
    func emptyTrashInBackground(progress: (@Sendable (Int, Int) -> Void)?, completion: (@Sendable () -> Void)?) {
        let files = self.files
        trashQueue.async {
            files.emptyTrash { removed, total in progress?(removed, total) }
            completion?()
        }
    }
}

public import Foundation
public import Logging
import YYDispatch

/// A thread-safe, process-safe key-value cache on disk: SQLite for the index and small values,
/// one file per large value.
///
/// Layout of the folder: `manifest.sqlite` (WAL), `data/` (value files), `trash/` (folders being
/// deleted) and `lock`. Values larger than ``inlineThreshold`` (20 KB by default) are files; smaller
/// ones are stored in the manifest. A value file is written under a fresh unique name and then
/// committed by its row, so a crash leaves either the old or the new value, never a torn one;
/// files left behind by a crash are swept at the next open.
///
/// ```swift
/// let cache = try DiskCache(path: "/var/cache/myapp/images")
/// try cache.setData(bytes, forKey: url.absoluteString)
/// let bytes = try cache.data(forKey: url.absoluteString)
/// cache.costLimit = 500 << 20
/// ```
///
/// Opening the same folder twice in one process gives two `DiskCache` values over one shared
/// connection, set of limits and counters. Several processes may use one folder at once (SQLite
/// locking with a busy timeout; not on network file systems). Limits are applied every
/// ``autoTrimInterval`` (60 s) and by the `trim` calls. Every call has an `async` twin that runs the
/// blocking work on a utility queue pool.
public final class DiskCache: Sendable {
    /// The folder, with symbolic links resolved.
    public let path: String
    /// Values larger than this many bytes are stored as files; others inline in the manifest.
    public let inlineThreshold: Int
    let core: DiskCacheCore
    private let options: Locked<Options>

    private struct Options {
        var fileNameStem: (@Sendable (String) -> String)?
        var coder: any CacheValueCoder = JSONCacheValueCoder()
    }

    /// What `entry(forKey:)` returns: a value with its metadata.
    public struct Entry: Sendable, Equatable {
        /// The stored bytes.
        public var data: Data
        /// The extended data stored beside the value, if any.
        public var extendedData: Data?
        /// When the value was written.
        public var modificationDate: Date
        /// When the value was last read or written, as recorded (see ``DiskCache/accessTimeResolution``).
        public var lastAccessDate: Date
        /// When the value expires, if it has a time to live.
        public var expirationDate: Date? {
            get { expirationTime.map(Date.init(milliseconds:)) }
            set { expirationTime = newValue.map { Int64(saturating: ($0.timeIntervalSince1970 * 1000).rounded()) } }
        }
        /// The expiration as stored, in milliseconds since 1970 on the cache's clock: what
        /// `Cache` promotes with, without a round trip through `Date`.
        var expirationTime: Int64?
    }

    /// Opens (creating if needed) the cache in the folder at `path`.
    ///
    /// - Parameters:
    ///   - path: the cache folder; created with its parents if missing.
    ///   - inlineThreshold: values larger than this are stored as files. `0` stores every non-empty
    ///     value as a file, `Int.max` every value inline. Default 20 KB.
    ///   - logger: where errors and repairs are reported (used by the first opening of a folder).
    /// - Throws: ``DiskCacheError`` when the path is invalid, not writable, or the manifest cannot be
    ///   opened. A damaged manifest is not an error: it is logged and rebuilt empty.
    public convenience init(
        path: String,
        inlineThreshold: Int = 20 * 1024,
        logger: Logger = Logger(label: "YYCache.DiskCache")
    ) throws(DiskCacheError) {
        try self.init(path: path, inlineThreshold: inlineThreshold, logger: logger, environment: .init())
    }

    init(path: String, inlineThreshold: Int, logger: Logger, environment: DiskCacheCore.Environment) throws(DiskCacheError) {
        core = try DiskCacheRegistry.core(path: path, logger: logger, environment: environment)
        self.path = core.path
        self.inlineThreshold = max(inlineThreshold, 0)
        options = Locked(Options())
    }

    // MARK: Options

    /// Gives the stem of a value file's name for a key (default: none, a random name).
    ///
    /// The cache appends `.` and a unique suffix, so a live file is never overwritten. The stem must
    /// be a plain file name: not empty, no `/` or NUL, not `.` or `..`, at most 200 bytes; otherwise
    /// the write fails with ``DiskCacheError/invalidFileName(_:reason:)``.
    public var fileNameStem: (@Sendable (_ key: String) -> String)? {
        get { options.withLock { $0.fileNameStem } }
        set { options.exchange(\.fileNameStem, with: newValue) }  // the old one released after the lock
    }

    /// Encodes and decodes `Codable` values for `value(_:forKey:)` and `setValue(_:forKey:extendedData:expiresAfter:)`.
    /// Default: ``JSONCacheValueCoder``.
    public var coder: any CacheValueCoder {
        get { options.withLock { $0.coder } }
        set { options.exchange(\.coder, with: newValue) }  // the old one released after the lock
    }

    /// Where errors and repairs are reported.
    public var logger: Logger { core.logger }

    // MARK: Limits (shared by every DiskCache on this folder)

    /// The maximum number of values, or `nil` (default) for none. Applied by the periodic trim.
    public var countLimit: Int? {
        get { core.limits.withLock { $0.count } }
        set { core.limits.withLock { $0.count = newValue } }
    }

    /// The maximum total size in bytes, or `nil` (default) for none. Applied by the periodic trim.
    public var costLimit: Int? {
        get { core.limits.withLock { $0.cost } }
        set { core.limits.withLock { $0.cost = newValue } }
    }

    /// The maximum time since a value was last used, or `nil` (default). Applied by the periodic trim.
    public var ageLimit: Duration? {
        get { core.limits.withLock { $0.age } }
        set { core.limits.withLock { $0.age = newValue } }
    }

    /// The free space, in bytes, to keep on the file system; below it the periodic trim evicts
    /// least recently used values worth the shortfall. `nil` (default) for no floor.
    public var freeDiskSpaceLimit: Int? {
        get { core.limits.withLock { $0.freeDiskSpace } }
        set { core.limits.withLock { $0.freeDiskSpace = newValue } }
    }

    /// How fine-grained the least-recently-used order is. A read records its time only when the
    /// value's recorded access is older than this, so a hot value costs at most one manifest write
    /// per interval and a read right after a write costs none. Default 1 second (YYKVStorage kept
    /// whole seconds); `.zero` records every read. Recorded reads are written in batches.
    public var accessTimeResolution: Duration {
        get { core.limits.withLock { $0.accessTimeResolution } }
        set { core.limits.withLock { $0.accessTimeResolution = max(newValue, .zero) } }
    }

    /// How often limits and expiry are applied in the background. Default 60 seconds.
    public var autoTrimInterval: Duration {
        get { core.limits.withLock { $0.autoTrimInterval } }
        set {
            core.limits.withLock { $0.autoTrimInterval = max(newValue, .milliseconds(1)) }
            core.scheduleAutoTrim()
        }
    }

    // MARK: Reading

    /// Whether a live (unexpired) value is stored for `key`.
    public func contains(_ key: String) throws(DiskCacheError) -> Bool {
        let now = core.environment.now()
        let expiration = try core.withManifest { manifest throws(SQLiteError) in try manifest.expiration(forKey: key) }
        guard let expiration else { return false }
        return expiration.map { $0 > now } ?? true
    }

    /// The bytes stored for `key`, or `nil`.
    public func data(forKey key: String) throws(DiskCacheError) -> Data? {
        try read(key, includingExtendedData: false)?.data
    }

    /// The bytes stored for `key` with their extended data and dates, or `nil`.
    public func entry(forKey key: String) throws(DiskCacheError) -> Entry? {
        try read(key, includingExtendedData: true)
    }

    /// The extended data stored beside the value for `key`, or `nil` (no value, or none attached).
    /// Does not read the value itself.
    public func extendedData(forKey key: String) throws(DiskCacheError) -> Data? {
        let now = core.environment.now()
        let row = try core.withManifest { manifest throws(SQLiteError) in
            try manifest.row(forKey: key, includingExtendedData: true)
        }
        guard let row, row.expirationTime.map({ $0 > now }) ?? true else { return nil }
        return row.extendedData
    }

    /// The value stored for `key` decoded as `T`, or `nil`. `Data` is returned as stored.
    ///
    /// - Throws: ``DiskCacheError/coding(key:message:)`` when the bytes do not decode as `T`.
    public func value<T: Decodable>(_ type: T.Type, forKey key: String) throws(DiskCacheError) -> T? {
        guard let data = try data(forKey: key) else { return nil }
        return try coder.decodeFromCache(type, from: data, key: key)
    }

    /// Reads a row and, for a file value, the file; retries when a concurrent write replaced the
    /// file between the two steps; drops a row whose file is gone or not of the row's size.
    private func read(_ key: String, includingExtendedData: Bool) throws(DiskCacheError) -> Entry? {
        let resolution = core.limits.withLock { $0.accessTimeResolution.clampedMilliseconds }
        for _ in 0..<4 {
            let now = core.environment.now()
            let lookup = try core.withManifest { manifest throws(SQLiteError) -> Lookup in
                guard var row = try manifest.row(forKey: key, includingExtendedData: includingExtendedData) else {
                    return .missing
                }
                if let expiration = row.expirationTime, expiration <= now {
                    return .expired(try manifest.remove(key: key))
                }
                if resolution == 0 || now - row.lastAccessTime >= resolution {
                    try manifest.noteAccess(key, at: now)
                    row.lastAccessTime = now
                }
                return .found(row)
            }
            let row: Manifest.Row
            switch lookup {
            case .missing:
                return recordMiss()
            case .expired(let removal):
                core.finish(removal, evicted: true)
                return recordMiss()
            case .found(let found):
                row = found
            }
            let data: Data
            if let fileName = row.fileName {
                guard let contents = try core.files.read(named: fileName) else {
                    // Replaced by a concurrent write (try again) or lost (drop the row).
                    let removal = try core.withManifest { manifest throws(SQLiteError) in
                        try manifest.remove(key: key, ifFileName: fileName)
                    }
                    if removal.count > 0 {
                        logger.warning("cache value file is missing; entry dropped", metadata: ["key": "\(key)", "file": "\(fileName)"])
                        return recordMiss()
                    }
                    continue
                }
                guard contents.count == row.size else {
                    // Value files are written once and never change, so a file of another size
                    // was damaged outside the cache (cut short, overwritten): a miss, never
                    // wrong bytes.
                    let removal = try core.withManifest { manifest throws(SQLiteError) in
                        try manifest.remove(key: key, ifFileName: fileName)
                    }
                    core.finish(removal, evicted: false)
                    logger.warning(
                        "cache value file has the wrong size; entry dropped",
                        metadata: ["key": "\(key)", "file": "\(fileName)", "expected": "\(row.size)", "found": "\(contents.count)"])
                    return recordMiss()
                }
                data = contents
            } else {
                data = row.inlineData ?? Data()
            }
            core.statistics.withLock { $0.session.hits += 1 }
            return Entry(
                data: data,
                extendedData: row.extendedData,
                modificationDate: Date(milliseconds: row.modificationTime),
                lastAccessDate: Date(milliseconds: row.lastAccessTime),
                expirationTime: row.expirationTime
            )
        }
        return recordMiss()
    }

    private enum Lookup: Sendable {
        case missing
        case expired(Manifest.Removal)
        case found(Manifest.Row)
    }

    private func recordMiss() -> Entry? {
        core.statistics.withLock { $0.session.misses += 1 }
        return nil
    }

    // MARK: Writing

    /// Stores `data` for `key`, replacing any earlier value.
    ///
    /// - Parameters:
    ///   - data: the bytes, stored as they are.
    ///   - key: any string; it is never used as a path.
    ///   - extendedData: optional bytes kept beside the value (YYDiskCache's extended data), read
    ///     back with `extendedData(forKey:)` or `entry(forKey:)`.
    ///   - expiresAfter: a time to live; after it the value reads as absent and is swept.
    public func setData(_ data: Data, forKey key: String, extendedData: Data? = nil, expiresAfter: Duration? = nil) throws(DiskCacheError) {
        let now = core.environment.now()
        let expiration = expiresAfter.map { now.addingReportingOverflow($0.clampedMilliseconds) }
            .map { $0.overflow ? Int64.max : $0.partialValue }
        var newFile: String?
        if data.count > inlineThreshold {
            let stem = fileNameStem?(key)
            if let stem { try FileStore.validate(fileNameStem: stem) }
            let name = FileStore.uniqueName(stem: stem)
            try core.files.write(data, named: name)
            newFile = name
        }
        do {
            let replaced = try core.withManifest { manifest throws(SQLiteError) in
                let save = { () throws(SQLiteError) in
                    try manifest.save(
                        key: key, fileName: newFile, size: Int64(data.count),
                        inlineData: newFile == nil ? data : nil, extendedData: extendedData,
                        expirationTime: expiration, now: now)
                }
                guard let newFile else { return try save() }
                return try manifest.connection.transaction { () throws(SQLiteError) in
                    // A removeAll (of this process or another) may have moved `data/`, and the new
                    // file in it, to the trash since the file was written: the row would name a
                    // file that is gone, and a value written after the removal would be lost.
                    // Under the write lock no removeAll can run; the file is written again if it went.
                    if !core.files.exists(newFile) {
                        do throws(DiskCacheError) {
                            try core.files.write(data, named: newFile)
                        } catch {
                            throw SQLiteError.ioError(error.description, context: "write \(newFile) again after a removeAll")
                        }
                    }
                    return try save()
                }
            }
            if let replaced, replaced != newFile { core.files.remove([replaced]) }
        } catch {
            if let newFile { core.files.remove([newFile]) }
            throw error
        }
    }

    /// Encodes `value` with ``coder`` (`Data` as is) and stores it for `key`.
    public func setValue<T: Encodable>(_ value: T, forKey key: String, extendedData: Data? = nil, expiresAfter: Duration? = nil)
        throws(DiskCacheError)
    {
        try setData(coder.encodeForCache(value, key: key), forKey: key, extendedData: extendedData, expiresAfter: expiresAfter)
    }

    /// Removes the value for `key`, if any.
    public func removeValue(forKey key: String) throws(DiskCacheError) {
        let removal = try core.withManifest { manifest throws(SQLiteError) in try manifest.remove(key: key) }
        core.finish(removal, evicted: false)
    }

    /// Removes every value. The rows go at once; the files move to `trash/` in one rename and are
    /// deleted in the background.
    public func removeAll() throws(DiskCacheError) {
        try moveEverythingToTrash()
        core.emptyTrashInBackground(progress: nil, completion: nil)
    }

    /// Removes every value, then waits until the trash is empty, reporting `(removed, total)` file
    /// counts to `progress` on a background queue with no lock held (so it may call the cache).
    public func removeAll(progress: @escaping @Sendable (_ removed: Int, _ total: Int) -> Void) async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.moveEverythingToTrash() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            core.emptyTrashInBackground(progress: progress) { continuation.resume() }
        }
    }

    /// Deletes every row and moves `data/` into `trash/`, in one write transaction so that no other
    /// process commits a row for a file in the folder being moved.
    private func moveEverythingToTrash() throws(DiskCacheError) {
        try core.withManifest { manifest throws(SQLiteError) in
            try manifest.connection.transaction { () throws(SQLiteError) in
                _ = try manifest.removeAll()
                do throws(DiskCacheError) {
                    try core.files.moveDataToTrash()
                } catch {
                    throw SQLiteError.ioError(error.description, context: "move data to trash")
                }
            }
            manifest.connection.checkpoint()
        }
    }

    // MARK: Status

    /// The number of stored values.
    public var totalCount: Int {
        get throws(DiskCacheError) {
            Int(try core.withManifest { manifest throws(SQLiteError) in try manifest.count })
        }
    }

    /// The total size of the stored values in bytes (extended data not included).
    public var totalCost: Int {
        get throws(DiskCacheError) {
            Int(try core.withManifest { manifest throws(SQLiteError) in try manifest.totalSize })
        }
    }

    /// Hit, miss and eviction counters of this process since the folder was opened.
    public var statistics: CacheStatistics {
        core.statistics.withLock { $0.session }
    }

    /// Hit, miss and eviction counters of every process that has used the folder, kept in the
    /// manifest. Each process adds its counts with the periodic trim, on `flush()` and when its
    /// last `DiskCache` on the folder is released.
    public var lifetimeStatistics: CacheStatistics {
        get throws(DiskCacheError) { try core.lifetimeStatistics() }
    }

    /// Writes batched access times and counters to the manifest now.
    public func flush() throws(DiskCacheError) {
        try core.flushPending()
    }

    // MARK: Trimming

    /// Evicts least recently used values until at most `count` remain.
    ///
    /// - Complexity: O(k log n) for the k values evicted: rows come in access-time order from an index.
    public func trim(toCount count: Int) throws(DiskCacheError) {
        try core.trim(toCount: count)
    }

    /// Evicts least recently used values until their total size is at most `cost` bytes.
    ///
    /// - Complexity: O(k log n) for the k values evicted.
    public func trim(toCost cost: Int) throws(DiskCacheError) {
        try core.trim(toCost: cost)
    }

    /// Evicts values not used for longer than `age`.
    ///
    /// - Complexity: O(k log n) for the k values evicted.
    public func trim(toAge age: Duration) throws(DiskCacheError) {
        try core.trim(toAge: age)
    }

    /// Evicts least recently used values until the file system has `bytes` free, as far as the
    /// cache's own size allows.
    public func trim(toFreeDiskSpace bytes: Int) throws(DiskCacheError) {
        try core.trim(toFreeDiskSpace: bytes)
    }

    /// Removes values whose time to live has passed.
    public func removeExpiredValues() throws(DiskCacheError) {
        try core.removeExpired()
    }

    /// Applies every limit and expiry now, as the periodic trim does.
    public func trimToLimits() {
        core.trimAutomatically()
    }
}

extension DiskCache: CustomStringConvertible {
    public var description: String { "DiskCache(\(path))" }
}

import Foundation
public import Logging
import YYDispatch

/// A two-level cache: a fast ``MemoryCache`` in front of a persistent ``DiskCache``, with an
/// optional ``SharedCacheTier`` (Redis, say) behind them that several machines share.
///
/// Reads try memory first, then disk, then the shared tier; a hit is decoded and promoted into the
/// levels in front of it with the time it has left. Writes and removals go to every level. Values
/// are `Codable`; `Data` is stored on disk as is, anything else through the disk cache's
/// ``DiskCache/coder`` (the shared tier stores the same bytes as the disk).
///
/// The async methods wait for the shared tier; the synchronous ones read only the local levels and
/// queue their writes and removals to the tier, which sends them in order in the background. An
/// error of the shared tier never fails a call: it is a miss or a skipped write, counted in
/// ``sharedTierStatistics`` and logged. A stored value the coder cannot read as `Value` (written
/// for an older shape of the type, say) is a miss too, logged, until a write replaces it.
///
/// ```swift
/// let cache = try Cache<Data>(name: "avatars")          // ~/.cache/avatars on Linux
/// try cache.setValue(png, forKey: "user/42")
/// let png = try cache.value(forKey: "user/42")
/// ```
public final class Cache<Value: Codable & Sendable>: Sendable {
    /// The name (the last component of the folder).
    public let name: String
    /// The memory level, holding decoded values.
    public let memoryCache: MemoryCache<String, Value>
    /// The disk level, holding encoded bytes.
    public let diskCache: DiskCache
    /// The level behind disk that several processes or machines share, if any.
    public var sharedTier: (any SharedCacheTier)? { tierLink?.tier }
    let tierLink: SharedTierLink?
    let fills = FillCoalescer<Value>()
    /// The local writes and removals under way, so that a disk hit copied into memory after one
    /// of its key does not land over the newer value or bring back a removed one.
    let localWrites = WriteOverlapTracker<String>()
    private let memoryCost: @Sendable (Value) -> Int

    /// The folder under which ``init(name:rootDirectory:memoryCost:sharedTier:logger:)`` creates caches:
    /// the user's caches folder (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on Apple platforms).
    public static var defaultRootDirectory: String {
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
        return FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?.path
            ?? NSTemporaryDirectory()
    }

    /// Opens the cache named `name` in `rootDirectory` (default ``defaultRootDirectory``).
    ///
    /// - Throws: ``DiskCacheError/invalidPath(_:reason:)`` when the name is empty, `.`/`..` or
    ///   contains `/` or NUL; otherwise what ``DiskCache/init(path:inlineThreshold:logger:)`` throws.
    public convenience init(
        name: String,
        rootDirectory: String? = nil,
        memoryCost: @escaping @Sendable (Value) -> Int = Cache.defaultMemoryCost,
        sharedTier: (any SharedCacheTier)? = nil,
        logger: Logger = Logger(label: "YYCache.Cache")
    ) throws(DiskCacheError) {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.utf8.contains(0) {
            throw .invalidPath(name, reason: "a cache name must be a plain folder name")
        }
        let root = rootDirectory ?? Self.defaultRootDirectory
        try self.init(path: root + "/" + name, memoryCost: memoryCost, sharedTier: sharedTier, logger: logger)
    }

    /// Opens the cache in the folder at `path`.
    ///
    /// - Parameters:
    ///   - path: the folder; created if missing.
    ///   - inlineThreshold: passed to the disk cache (values above it are files). Default 20 KB.
    ///   - memoryCost: each value's cost in the memory cache (default: the byte count for `Data`, else 0).
    ///   - sharedTier: a third level that several processes or machines share (default none).
    ///   - logger: where the disk cache reports what it repairs or cannot do, and where failures of
    ///     the shared tier are reported.
    public convenience init(
        path: String,
        inlineThreshold: Int = 20 * 1024,
        memoryCost: @escaping @Sendable (Value) -> Int = Cache.defaultMemoryCost,
        sharedTier: (any SharedCacheTier)? = nil,
        logger: Logger = Logger(label: "YYCache.Cache")
    ) throws(DiskCacheError) {
        let diskCache = try DiskCache(path: path, inlineThreshold: inlineThreshold, logger: logger)
        let name = URL(fileURLWithPath: diskCache.path).lastPathComponent
        self.init(
            memoryCache: MemoryCache(name: name), diskCache: diskCache, memoryCost: memoryCost,
            sharedTier: sharedTier, logger: logger)
    }

    /// Joins the levels; tests give them clocks they move by hand.
    init(
        memoryCache: MemoryCache<String, Value>,
        diskCache: DiskCache,
        memoryCost: @escaping @Sendable (Value) -> Int,
        sharedTier: (any SharedCacheTier)? = nil,
        logger: Logger = Logger(label: "YYCache.Cache")
    ) {
        self.diskCache = diskCache
        self.memoryCache = memoryCache
        name = URL(fileURLWithPath: diskCache.path).lastPathComponent
        self.memoryCost = memoryCost
        tierLink = sharedTier.map { SharedTierLink(tier: $0, logger: logger) }
    }

    deinit {
        // Writes the synchronous API queued for the shared tier are still sent.
        tierLink?.finish()
    }

    /// Returns once the writes and removals that the synchronous methods queued for the shared
    /// tier have been sent (at once without a tier).
    public func flushSharedTierWrites() async {
        await tierLink?.flush()
    }

    /// What the cache saw of its shared tier: hits, misses, errors, skipped writes (all zero
    /// without one).
    public var sharedTierStatistics: SharedTierStatistics { tierLink?.statistics ?? SharedTierStatistics() }

    /// The default memory cost: the byte count of `Data` values, 0 for other types.
    public static var defaultMemoryCost: @Sendable (Value) -> Int {
        { ($0 as? Data)?.count ?? 0 }
    }

    /// Whether either level holds a live value for `key`.
    public func contains(_ key: String) throws(DiskCacheError) -> Bool {
        if memoryCache.contains(key) { return true }
        return try diskCache.contains(key)
    }

    /// The value for `key` from memory, or else from disk (then kept in memory), or `nil`.
    public func value(forKey key: String) throws(DiskCacheError) -> Value? {
        if let value = memoryCache.value(forKey: key) { return value }
        let lookup = localWrites.beginLookup(key)
        defer { localWrites.endLookup(lookup) }
        guard let entry = try diskCache.entry(forKey: key), let value = decoded(entry.data, forKey: key) else { return nil }
        promote(value, forKey: key, expirationTime: entry.expirationTime, lookup: lookup)
        return value
    }

    /// Stores `value` in both local levels, and queues it for the shared tier.
    public func setValue(_ value: Value, forKey key: String, expiresAfter: Duration? = nil) throws(DiskCacheError) {
        let write = localWrites.beginWrite(key)
        var stored = false
        defer { endLocalWrite(write, succeeded: stored) }
        let data = try diskCache.coder.encodeForCache(value, key: key)
        memoryCache.setValue(value, forKey: key, cost: memoryCost(value), expiresAfter: expiresAfter)
        try diskCache.setData(data, forKey: key, expiresAfter: expiresAfter)
        tierLink?.enqueue(.set(data, key: key, timeToLive: expiresAfter))
        stored = true
    }

    /// Removes the value for `key` from both local levels, and queues its removal from the shared tier.
    public func removeValue(forKey key: String) throws(DiskCacheError) {
        let write = localWrites.beginWrite(key)
        defer { endLocalWrite(write, succeeded: true) }
        memoryCache.removeValue(forKey: key)
        try diskCache.removeValue(forKey: key)
        tierLink?.enqueue(.remove(key: key))
    }

    /// Removes every value from both local levels (disk files are deleted in the background).
    /// The shared tier is left as it is: other machines' values are not this cache's to clear.
    public func removeAll() throws(DiskCacheError) {
        let write = localWrites.beginWrite(nil)
        defer { endLocalWrite(write, succeeded: true) }
        memoryCache.removeAll()
        try diskCache.removeAll()
    }

    /// Removes every value, reporting the deletion of disk files as `(removed, total)`, and returns
    /// when they are gone.
    public func removeAll(progress: @escaping @Sendable (_ removed: Int, _ total: Int) -> Void) async throws(DiskCacheError) {
        let write = localWrites.beginWrite(nil)
        defer { endLocalWrite(write, succeeded: true) }
        memoryCache.removeAll()
        try await diskCache.removeAll(progress: progress)
    }

    // MARK: Async

    /// Whether either level holds a live value for `key`.
    public func contains(_ key: String) async throws(DiskCacheError) -> Bool {
        if memoryCache.contains(key) { return true }
        return try await diskCache.contains(key)
    }

    /// The value for `key` from memory, or else from disk (then kept in memory), or else from the
    /// shared tier (then kept on disk and in memory for the time it has left), or `nil`.
    /// A memory hit returns without leaving the caller's task.
    public func value(forKey key: String) async throws(DiskCacheError) -> Value? {
        if let value = memoryCache.value(forKey: key) { return value }
        let lookup = localWrites.beginLookup(key)
        defer { localWrites.endLookup(lookup) }
        if let entry = try await diskCache.entry(forKey: key), let value = decoded(entry.data, forKey: key) {
            promote(value, forKey: key, expirationTime: entry.expirationTime, lookup: lookup)
            return value
        }
        // Not while a local write of the key is under way, or after one came during the disk read:
        // it may store its value before or after what the tier's would be promoted.
        guard let tierLink, localWrites.mayStore(lookup), let entry = await tierLink.entry(forKey: key) else { return nil }
        return try await promoteFromSharedTier(entry, forKey: key, lookup: lookup, link: tierLink)
    }

    /// Stores `value` in every level.
    public func setValue(_ value: Value, forKey key: String, expiresAfter: Duration? = nil) async throws(DiskCacheError) {
        try await store(value, forKey: key, expiresAfter: expiresAfter, write: localWrites.beginWrite(key))
    }

    /// Stores `value` in every level as the local write `write` of `key`, and ends it.
    ///
    /// A fill's value (`lease` set) goes to the shared tier first, under its fill lock:
    /// when the tier says the key was removed or written on some machine while the fill ran, no
    /// level keeps it, as none keeps it after such a write in this process.
    func store(
        _ value: Value, forKey key: String, expiresAfter: Duration?, write: LocalWrite,
        lease: SharedTierLink.FillLease? = nil
    ) async throws(DiskCacheError) {
        var stored = false
        defer { endLocalWrite(write, succeeded: stored) }
        let data = try diskCache.coder.encodeForCache(value, key: key)
        if let lease, let tierLink, await !tierLink.setFilledData(data, forKey: key, timeToLive: expiresAfter, lease: lease) {
            stored = true  // nothing was written, so nothing is half-written
            return
        }
        memoryCache.setValue(value, forKey: key, cost: memoryCost(value), expiresAfter: expiresAfter)
        try await diskCache.setData(data, forKey: key, expiresAfter: expiresAfter)
        stored = true
        if lease == nil { await tierLink?.setData(data, forKey: key, timeToLive: expiresAfter) }
    }

    /// Removes the value for `key` from every level.
    public func removeValue(forKey key: String) async throws(DiskCacheError) {
        let write = localWrites.beginWrite(key)
        defer { endLocalWrite(write, succeeded: true) }
        memoryCache.removeValue(forKey: key)
        try await diskCache.removeValue(forKey: key)
        await tierLink?.removeData(forKey: key)
    }

    /// Removes every value from both local levels (the shared tier is left as it is).
    public func removeAll() async throws(DiskCacheError) {
        let write = localWrites.beginWrite(nil)
        defer { endLocalWrite(write, succeeded: true) }
        memoryCache.removeAll()
        try await diskCache.removeAll()
    }

    /// `data` from disk as a `Value`, or `nil` (a miss, logged) when the coder cannot read it: bytes
    /// written for an older shape of `Value`, say. A miss, not an error, so that reads of the key
    /// go on and ``value(forKey:expiresAfter:fillLockTimeToLive:orFill:)`` runs the fill that
    /// replaces it. The entry stays: another reader may know its shape, and a write replaces it.
    private func decoded(_ data: Data, forKey key: String) -> Value? {
        do {
            return try diskCache.coder.decodeFromCache(Value.self, from: data, key: key)
        } catch {
            diskCache.logger.warning("cached value could not be decoded; treated as a miss", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    /// A local write or removal under way (of one key, or of every key), marked for the reads of
    /// the disk and the shared tier whose hits would be copied into faster levels.
    typealias LocalWrite = WriteOverlapTracker<String>.Write

    /// Ends a local write or removal. Memory and disk are written one after the other, so when
    /// another write or removal of the key overlapped this one, memory may hold one's value and
    /// the disk the other's; and a write that failed (`succeeded` false) left its value in memory
    /// although the disk kept the old one. Either way the key's memory entry goes, and the next
    /// read takes what the disk holds.
    private func endLocalWrite(_ write: LocalWrite, succeeded: Bool) {
        // Before the marks end, so that a read that misses meanwhile does not keep what it finds.
        if let key = write.key, !succeeded || localWrites.isOverlapped(write) {
            memoryCache.removeValue(forKey: key)
        }
        localWrites.endWrite(write)
    }

    /// Puts a disk hit into memory with the time it has left on disk, measured on the disk
    /// cache's own wall clock (the one that wrote the expiration), unless a local write or
    /// removal of the key came since `lookup` began: the disk then has something newer (or
    /// nothing). One that comes while the hit is stored may have stored its value first: the
    /// hit goes again (a miss is safe, a stale hit is not).
    private func promote(_ value: Value, forKey key: String, expirationTime: Int64?, lookup: WriteOverlapTracker<String>.Lookup) {
        let now = diskCache.core.environment.now()
        let remaining = expirationTime.map { Duration.milliseconds($0 - now) }
        if let remaining, remaining <= .zero { return }
        guard localWrites.mayStore(lookup) else { return }
        memoryCache.setValue(value, forKey: key, cost: memoryCost(value), expiresAfter: remaining)
        if !localWrites.mayStore(lookup) { memoryCache.removeValue(forKey: key) }
    }

    /// Decodes a shared-tier hit and keeps it on disk and in memory for the time it has left
    /// (measured on the wall clock, which the machine that wrote it shares up to clock skew).
    /// A value the coder cannot read is a miss.
    ///
    /// A local write or removal of the key that comes since `lookup` began (while the tier is read
    /// or the hit stored) wins: the hit is then returned to this caller but not kept, or taken out
    /// again if it was stored meanwhile (it may have landed after the newer value; a miss is safe,
    /// a stale value is not).
    func promoteFromSharedTier(
        _ entry: SharedCacheEntry, forKey key: String, lookup: WriteOverlapTracker<String>.Lookup,
        link: SharedTierLink
    ) async throws(DiskCacheError) -> Value? {
        let value: Value
        do {
            value = try diskCache.coder.decodeFromCache(Value.self, from: entry.data, key: key)
        } catch {
            link.recordUndecodable(key: key, error: error)
            return nil
        }
        // The tier may be anyone's: a date beyond any clock saturates, and one that is not a
        // number (NaN becomes 0) reads as expired.
        let remaining = entry.expirationDate.map { Duration.milliseconds(Int64(saturating: ($0.timeIntervalSinceNow * 1000).rounded(.down))) }
        if let remaining, remaining <= .zero { return nil }
        guard localWrites.mayStore(lookup) else { return value }
        try await diskCache.setData(entry.data, forKey: key, expiresAfter: remaining)
        memoryCache.setValue(value, forKey: key, cost: memoryCost(value), expiresAfter: remaining)
        if !localWrites.mayStore(lookup) {
            memoryCache.removeValue(forKey: key)
            try? await diskCache.removeValue(forKey: key)
        }
        return value
    }
}

extension Cache: CustomStringConvertible {
    public var description: String { "Cache(\(name): \(diskCache.path))" }
}

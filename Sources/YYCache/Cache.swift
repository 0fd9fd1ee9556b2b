import Foundation
public import Logging

/// A two-level cache: a fast ``MemoryCache`` in front of a persistent ``DiskCache``.
///
/// Reads try memory first, then disk; a disk hit is decoded and promoted into memory. Writes and
/// removals go to both. Values are `Codable`; `Data` is stored on disk as is, anything else through
/// the disk cache's ``DiskCache/coder``.
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
    private let memoryCost: @Sendable (Value) -> Int

    /// The folder under which ``init(name:rootDirectory:memoryCost:logger:)`` creates caches:
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
        logger: Logger = Logger(label: "YYCache.Cache")
    ) throws(DiskCacheError) {
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.utf8.contains(0) {
            throw .invalidPath(name, reason: "a cache name must be a plain folder name")
        }
        let root = rootDirectory ?? Self.defaultRootDirectory
        try self.init(path: root + "/" + name, memoryCost: memoryCost, logger: logger)
    }

    /// Opens the cache in the folder at `path`.
    ///
    /// - Parameters:
    ///   - path: the folder; created if missing.
    ///   - inlineThreshold: passed to the disk cache (values above it are files). Default 20 KB.
    ///   - memoryCost: each value's cost in the memory cache (default: the byte count for `Data`, else 0).
    ///   - logger: where the disk cache reports what it repairs or cannot do.
    public convenience init(
        path: String,
        inlineThreshold: Int = 20 * 1024,
        memoryCost: @escaping @Sendable (Value) -> Int = Cache.defaultMemoryCost,
        logger: Logger = Logger(label: "YYCache.Cache")
    ) throws(DiskCacheError) {
        let diskCache = try DiskCache(path: path, inlineThreshold: inlineThreshold, logger: logger)
        let name = URL(fileURLWithPath: diskCache.path).lastPathComponent
        self.init(memoryCache: MemoryCache(name: name), diskCache: diskCache, memoryCost: memoryCost)
    }

    /// Joins two levels; tests give them clocks they move by hand.
    init(memoryCache: MemoryCache<String, Value>, diskCache: DiskCache, memoryCost: @escaping @Sendable (Value) -> Int) {
        self.diskCache = diskCache
        self.memoryCache = memoryCache
        name = URL(fileURLWithPath: diskCache.path).lastPathComponent
        self.memoryCost = memoryCost
    }

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
        guard let entry = try diskCache.entry(forKey: key) else { return nil }
        let value = try diskCache.coder.decodeFromCache(Value.self, from: entry.data, key: key)
        promote(value, forKey: key, expiration: entry.expirationDate)
        return value
    }

    /// Stores `value` in both levels.
    public func setValue(_ value: Value, forKey key: String, expiresAfter: Duration? = nil) throws(DiskCacheError) {
        memoryCache.setValue(value, forKey: key, cost: memoryCost(value), expiresAfter: expiresAfter)
        try diskCache.setValue(value, forKey: key, expiresAfter: expiresAfter)
    }

    /// Removes the value for `key` from both levels.
    public func removeValue(forKey key: String) throws(DiskCacheError) {
        memoryCache.removeValue(forKey: key)
        try diskCache.removeValue(forKey: key)
    }

    /// Removes every value from both levels (disk files are deleted in the background).
    public func removeAll() throws(DiskCacheError) {
        memoryCache.removeAll()
        try diskCache.removeAll()
    }

    /// Removes every value, reporting the deletion of disk files as `(removed, total)`, and returns
    /// when they are gone.
    public func removeAll(progress: @escaping @Sendable (_ removed: Int, _ total: Int) -> Void) async throws(DiskCacheError) {
        memoryCache.removeAll()
        try await diskCache.removeAll(progress: progress)
    }

    // MARK: Async

    /// Whether either level holds a live value for `key`.
    public func contains(_ key: String) async throws(DiskCacheError) -> Bool {
        if memoryCache.contains(key) { return true }
        return try await diskCache.contains(key)
    }

    /// The value for `key` from memory, or else from disk (then kept in memory), or `nil`.
    /// A memory hit returns without leaving the caller's task.
    public func value(forKey key: String) async throws(DiskCacheError) -> Value? {
        if let value = memoryCache.value(forKey: key) { return value }
        guard let entry = try await diskCache.entry(forKey: key) else { return nil }
        let value = try diskCache.coder.decodeFromCache(Value.self, from: entry.data, key: key)
        promote(value, forKey: key, expiration: entry.expirationDate)
        return value
    }

    /// Stores `value` in both levels.
    public func setValue(_ value: Value, forKey key: String, expiresAfter: Duration? = nil) async throws(DiskCacheError) {
        memoryCache.setValue(value, forKey: key, cost: memoryCost(value), expiresAfter: expiresAfter)
        try await diskCache.setValue(value, forKey: key, expiresAfter: expiresAfter)
    }

    /// Removes the value for `key` from both levels.
    public func removeValue(forKey key: String) async throws(DiskCacheError) {
        memoryCache.removeValue(forKey: key)
        try await diskCache.removeValue(forKey: key)
    }

    /// Removes every value from both levels.
    public func removeAll() async throws(DiskCacheError) {
        memoryCache.removeAll()
        try await diskCache.removeAll()
    }

    /// Puts a value read from disk into memory, keeping what is left of its time to live.
    /// Puts a disk hit into memory with the time it has left on disk, measured on the disk
    /// cache's own wall clock (the one that wrote the expiration).
    private func promote(_ value: Value, forKey key: String, expiration: Date?) {
        let now = diskCache.core.environment.now()
        let remaining = expiration.map { Duration.milliseconds(Int64(($0.timeIntervalSince1970 * 1000).rounded()) - now) }
        if let remaining, remaining <= .zero { return }
        memoryCache.setValue(value, forKey: key, cost: memoryCost(value), expiresAfter: remaining)
    }
}

extension Cache: CustomStringConvertible {
    public var description: String { "Cache(\(name): \(diskCache.path))" }
}

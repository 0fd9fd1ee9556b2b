public import Foundation
import YYDispatch

/// The `async` twins of every ``DiskCache`` call but one. They run the blocking work on a utility
/// queue pool (``YYDispatch/DispatchQueuePool``), never on the caller's cooperative thread.
///
/// ``DiskCache/lifetimeStatistics`` has no twin: a property cannot be overloaded on `async`. It
/// reads one row of the manifest; from a task, read it inside `DispatchQueuePool.run`.
extension DiskCache {
    /// Whether a live value is stored for `key`.
    public func contains(_ key: String) async throws(DiskCacheError) -> Bool {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.contains(key) }
    }

    /// The bytes stored for `key`, or `nil`.
    public func data(forKey key: String) async throws(DiskCacheError) -> Data? {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.data(forKey: key) }
    }

    /// The bytes stored for `key` with their extended data and dates, or `nil`.
    public func entry(forKey key: String) async throws(DiskCacheError) -> Entry? {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.entry(forKey: key) }
    }

    /// The extended data stored beside the value for `key`, or `nil`.
    public func extendedData(forKey key: String) async throws(DiskCacheError) -> Data? {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.extendedData(forKey: key) }
    }

    /// The value stored for `key` decoded as `T`, or `nil`.
    public func value<T: Decodable & Sendable>(_ type: T.Type, forKey key: String) async throws(DiskCacheError) -> T? {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.value(type, forKey: key) }
    }

    /// Stores `data` for `key`.
    public func setData(_ data: Data, forKey key: String, extendedData: Data? = nil, expiresAfter: Duration? = nil) async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in
            try self.setData(data, forKey: key, extendedData: extendedData, expiresAfter: expiresAfter)
        }
    }

    /// Encodes `value` and stores it for `key`.
    public func setValue<T: Encodable & Sendable>(_ value: T, forKey key: String, extendedData: Data? = nil, expiresAfter: Duration? = nil)
        async throws(DiskCacheError)
    {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in
            try self.setValue(value, forKey: key, extendedData: extendedData, expiresAfter: expiresAfter)
        }
    }

    /// Removes the value for `key`.
    public func removeValue(forKey key: String) async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.removeValue(forKey: key) }
    }

    /// Removes every value; the files are deleted in the background.
    public func removeAll() async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.removeAll() }
    }

    /// The number of values and their total size, read together.
    public func totals() async throws(DiskCacheError) -> (count: Int, cost: Int) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in (try self.totalCount, try self.totalCost) }
    }

    /// Evicts least recently used values until at most `count` remain.
    public func trim(toCount count: Int) async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.trim(toCount: count) }
    }

    /// Evicts least recently used values until their total size is at most `cost` bytes.
    public func trim(toCost cost: Int) async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.trim(toCost: cost) }
    }

    /// Evicts values not used for longer than `age`.
    public func trim(toAge age: Duration) async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.trim(toAge: age) }
    }

    /// Evicts least recently used values until the file system has `bytes` free.
    public func trim(toFreeDiskSpace bytes: Int) async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.trim(toFreeDiskSpace: bytes) }
    }

    /// Removes values whose time to live has passed.
    public func removeExpiredValues() async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.removeExpiredValues() }
    }

    /// Writes batched access times and counters to the manifest now.
    public func flush() async throws(DiskCacheError) {
        try await DispatchQueuePool.shared(for: .utility).run { () throws(DiskCacheError) in try self.flush() }
    }

    /// Applies every limit and expiry now, as the periodic trim does.
    public func trimToLimits() async {
        await DispatchQueuePool.shared(for: .utility).run { self.trimToLimits() }
    }
}

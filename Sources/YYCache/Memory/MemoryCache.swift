public import YYDispatch  // public: the inlinable hot path uses `Locked`

/// A fast, thread-safe in-memory key-value cache with least-recently-used eviction.
///
/// Lookups, inserts and removals are O(1). The cache can be bounded by entry count, total cost and
/// age; each entry may also carry its own expiry. Limits are enforced on every insert (count and
/// cost) and by a periodic trim every ``autoTrimInterval`` (age and expiry). Evicted values are
/// released on a background queue unless ``releasesValuesAsynchronously`` is off.
///
/// ```swift
/// let cache = MemoryCache<String, Data>(name: "thumbnails")
/// cache.costLimit = 64 << 20
/// cache.setValue(data, forKey: url, cost: data.count)
/// let hit = cache.value(forKey: url)
/// ```
///
/// What differs from YYMemoryCache: limits are optional (`nil` means none) and the cost limit is
/// strict (checked on insert, not later in the background); a value whose cost alone exceeds the
/// cost limit is not stored; no `trylock`/`usleep` loops; values are read under the lock; no
/// user code runs while the lock is held.
public final class MemoryCache<Key: Hashable & Sendable, Value> {
    @usableFromInline
    struct State {
        @usableFromInline var list = LRUList<Key, Value>()
        @usableFromInline var countLimit: Int?
        @usableFromInline var costLimit: Int?
        @usableFromInline var ageLimit: Duration?
        @usableFromInline var statistics = CacheStatistics()
        @usableFromInline var releasesAsynchronously = true
        @usableFromInline var removesAllOnMemoryPressure = true
        @usableFromInline var memoryPressureHandler: (@Sendable () -> Void)?

        @inlinable init() {}
    }

    /// An entry taken out of the list: released, key and value, only after the lock is dropped.
    @usableFromInline typealias Removed = LRUList<Key, Value>.Removed

    /// An optional name, for logs and descriptions.
    public let name: String?
    @usableFromInline let state = Locked(State())
    @usableFromInline let clock: CacheClock
    private let timer = Locked<WeakTimer?>(nil)
    private let trimInterval = Locked<Duration>(.seconds(5))
    private let trimTarget = TrimTarget()

    /// Creates an empty cache with no limits.
    public convenience init(name: String? = nil) {
        self.init(name: name, clock: .monotonic)
    }

    init(name: String?, clock: CacheClock) {
        self.name = name
        self.clock = clock
        trimTarget.cache = self
    }

    deinit {
        timer.withLock { $0?.invalidate() }
    }

    // MARK: Limits

    /// The maximum number of entries, or `nil` for no limit (the default).
    /// Inserting past the limit evicts the least recently used entries at once.
    public var countLimit: Int? {
        get { locked { $0.countLimit } }
        set {
            locked { $0.countLimit = newValue.map { max($0, 0) } }
            enforceLimits()
        }
    }

    /// The maximum total cost, or `nil` for no limit (the default).
    /// Inserting past the limit evicts the least recently used entries at once.
    public var costLimit: Int? {
        get { locked { $0.costLimit } }
        set {
            locked { $0.costLimit = newValue.map { max($0, 0) } }
            enforceLimits()
        }
    }

    /// The maximum time since an entry was last read or written, or `nil` for no limit (the default).
    /// Enforced by the periodic trim and by ``trim(toAge:)``.
    public var ageLimit: Duration? {
        get { locked { $0.ageLimit } }
        set {
            locked { $0.ageLimit = newValue }
            scheduleAutoTrimIfNeeded()
        }
    }

    /// How often the cache trims itself to its limits and drops expired entries. Default 5 seconds.
    ///
    /// The timer runs only while a limit or an expiring entry could need it, holds the cache weakly
    /// and stops when the cache is deallocated.
    public var autoTrimInterval: Duration {
        get { trimInterval.withLock { $0 } }
        set {
            trimInterval.withLock { $0 = max(newValue, .milliseconds(1)) }
            timer.withLock {
                $0?.invalidate(); $0 = nil
            }
            scheduleAutoTrimIfNeeded()
        }
    }

    /// Whether evicted values (and the storage dropped by ``removeAll()``) are released on a
    /// background queue. Default `true`. Values replaced by a new value for the same key are
    /// released on the caller's thread, after the cache's lock is dropped.
    public var releasesValuesAsynchronously: Bool {
        get { locked { $0.releasesAsynchronously } }
        set { locked { $0.releasesAsynchronously = newValue } }
    }

    /// Whether ``handleMemoryPressure()`` empties the cache. Default `true`.
    public var removesAllValuesOnMemoryPressure: Bool {
        get { locked { $0.removesAllOnMemoryPressure } }
        set { locked { $0.removesAllOnMemoryPressure = newValue } }
    }

    /// Called by ``handleMemoryPressure()`` before the optional purge, outside the cache's lock.
    public var onMemoryPressure: (@Sendable () -> Void)? {
        get { locked { $0.memoryPressureHandler } }
        // The handler replaced, and whatever it captured, is released after the lock.
        set { state.exchange(\.memoryPressureHandler, with: newValue) }
    }

    // MARK: Reading

    /// The value for `key`, or `nil`. A hit makes the entry the most recently used.
    ///
    /// - Complexity: O(1): one hash lookup and three link updates.
    @inlinable
    public func value(forKey key: Key) -> Value? {
        var expired: Removed?
        let value = locked { state -> Value? in
            guard let slot = state.list.lookup(key) else {
                state.statistics.misses += 1
                return nil
            }
            // Read the clock only on a hit: a miss needs no time (the coarse clock is a vDSO call).
            let now = clock.now()
            if state.list.isExpired(slot.position, at: now) {
                expired = state.list.remove(slot.position)
                state.statistics.misses += 1
                state.statistics.evictions += 1
                return nil
            }
            state.list.touch(slot.position, at: now)
            state.statistics.hits += 1
            return slot.value
        }
        if let expired {
            var evicted = [expired]
            release(&evicted)
        }
        return value
    }

    /// Whether a live (unexpired) value is stored for `key`. Does not change the recency order.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func contains(_ key: Key) -> Bool {
        locked { state in state.list.containsLive(key, now: clock.now) }
    }

    /// Reads or writes a value with zero cost; assigning `nil` removes the entry.
    @inlinable
    public subscript(key: Key) -> Value? {
        get { value(forKey: key) }
        set {
            if let newValue { setValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    // MARK: Writing

    /// Stores `value` for `key`, replacing any earlier value, as the most recently used entry.
    ///
    /// - Parameters:
    ///   - value: what to store.
    ///   - key: where; an existing entry for it is replaced.
    ///   - cost: the entry's share of ``costLimit`` (for example its size in bytes); negative counts as 0.
    ///     A value whose cost alone exceeds the cost limit is not stored, and an earlier value for the
    ///     key is removed.
    ///   - expiresAfter: a time to live for this entry; after it the entry reads as absent.
    ///
    /// - Complexity: O(1), plus O(k) for the k entries evicted to stay within the limits.
    @inlinable
    public func setValue(_ value: Value, forKey key: Key, cost: Int = 0, expiresAfter: Duration? = nil) {
        let now = clock.now()
        let cost = max(cost, 0)
        let expiry =
            expiresAfter.map { now.addingReportingOverflow($0.clampedNanoseconds) }
            .map { $0.overflow ? UInt64.max - 1 : $0.partialValue } ?? .max
        var released: [Removed] = []
        // A replaced value is not an eviction: it is released here on return, after the lock is
        // dropped (its deinit never runs under the lock), as YYMemoryCache did.
        var replaced: Value?
        // The entry a value over the cost limit removes goes the same way, its key with it.
        var removed: Removed?
        let needsTimer = locked { state -> Bool in
            if let limit = state.costLimit, cost > limit {
                if let slot = state.list.lookup(key) { removed = state.list.remove(slot.position) }
                return false
            }
            replaced = state.list.upsert(key: key, value: value, cost: cost, time: now, expiry: expiry)
            Self.evictOverLimits(&state, into: &released)
            return expiry != .max
        }
        release(&released)
        if needsTimer { scheduleAutoTrimIfNeeded() }
        withExtendedLifetime((replaced, removed)) {}
    }

    /// Removes the value for `key` and returns it, or `nil` when there was none.
    ///
    /// - Complexity: O(1).
    @discardableResult
    @inlinable
    public func removeValue(forKey key: Key) -> Value? {
        // The removed key (the caller holds an equal one, maybe not the same object) is dropped
        // here, after the lock.
        locked { state -> Removed? in
            guard let slot = state.list.lookup(key) else { return nil }
            return state.list.remove(slot.position)
        }?.value
    }

    /// Removes every entry. The old storage is released on a background queue when
    /// ``releasesValuesAsynchronously`` is on.
    public func removeAll() {
        // The old storage goes straight into the array that is handed over: no copy stays here.
        var asynchronously = true
        var old = locked { state in
            asynchronously = state.releasesAsynchronously
            return [state.list.removeAll()]
        }
        ValueReleaser.release(&old, asynchronously: asynchronously)
    }

    // MARK: Status

    /// The number of entries, expired ones not yet swept included.
    public var totalCount: Int {
        locked { $0.list.count }
    }

    /// The sum of the entries' costs, or `Int.max` when it is larger.
    public var totalCost: Int {
        locked { Int(clamping: $0.list.totalCost) }
    }

    /// Hit, miss and eviction counters since creation or the last ``resetStatistics()``.
    public var statistics: CacheStatistics {
        locked { $0.statistics }
    }

    /// Sets the counters back to zero.
    public func resetStatistics() {
        locked { $0.statistics = CacheStatistics() }
    }

    // MARK: Trimming

    /// Evicts least recently used entries until at most `count` remain.
    ///
    /// - Complexity: O(k) for the k entries evicted.
    public func trim(toCount count: Int) {
        trim { state in state.list.count > max(count, 0) }
    }

    /// Evicts least recently used entries until the total cost is at most `cost`.
    ///
    /// - Complexity: O(k) for the k entries evicted.
    public func trim(toCost cost: Int) {
        trim { state in state.list.totalCost > Int128(max(cost, 0)) }
    }

    /// Evicts entries that have not been read or written for longer than `age`.
    ///
    /// - Complexity: O(k) for the k entries evicted: they are taken from the least recently used end.
    public func trim(toAge age: Duration) {
        let now = clock.now()
        let maximumAge = age.clampedNanoseconds
        trim { state in
            let tail = state.list.tail
            guard tail != LRUList<Key, Value>.none else { return false }
            return now &- min(state.list.accessTime(at: tail), now) > maximumAge
        }
    }

    /// Drops entries whose expiry has passed.
    ///
    /// - Complexity: O(n) over every slot when any entry carries an expiry; O(1) otherwise.
    public func removeExpiredValues() {
        let now = clock.now()
        var released: [Removed] = []
        locked { state in
            for position in state.list.expiredPositions(at: now) {
                if let removed = state.list.remove(position) { released.append(removed) }
                state.statistics.evictions += 1
            }
        }
        release(&released)
    }

    /// What the periodic timer does: expired entries, then cost, count and age limits.
    func trimAutomatically() {
        removeExpiredValues()
        enforceLimits()
        if let age = ageLimit { trim(toAge: age) }
    }

    // MARK: Memory pressure

    /// Reacts to memory pressure: calls ``onMemoryPressure``, then empties the cache when
    /// ``removesAllValuesOnMemoryPressure`` is on.
    ///
    /// Linux has no memory warnings; call this yourself, or let a ``MemoryPressureMonitor`` call it.
    public func handleMemoryPressure() {
        let (handler, purge) = locked { ($0.memoryPressureHandler, $0.removesAllOnMemoryPressure) }
        handler?()
        guard purge else { return }
        var asynchronously = true
        var evicted = locked { state in
            state.statistics.evictions += state.list.count
            asynchronously = state.releasesAsynchronously
            return [state.list.removeAll()]
        }
        ValueReleaser.release(&evicted, asynchronously: asynchronously)
    }

    // MARK: Internals

    @inlinable @inline(__always)
    func locked<R>(_ body: (inout State) -> R) -> R {
        state.withLock(body)
    }

    /// Evicts from the tail while `isOverLimit` holds, in batches, releasing the lock between
    /// batches so that other callers are never blocked for long.
    private func trim(while isOverLimit: (inout State) -> Bool) {
        let batchSize = 1024
        var finished = false
        while !finished {
            var released: [Removed] = []
            locked { state in
                var evicted = 0
                while evicted < batchSize, isOverLimit(&state), let removed = state.list.removeTail() {
                    released.append(removed)
                    evicted += 1
                }
                state.statistics.evictions += evicted
                finished = evicted < batchSize
            }
            release(&released)
        }
    }

    private func enforceLimits() {
        var released: [Removed] = []
        locked { Self.evictOverLimits(&$0, into: &released) }
        release(&released)
    }

    @inlinable
    static func evictOverLimits(_ state: inout State, into released: inout [Removed]) {
        let countLimit = state.countLimit ?? .max
        let costLimit = state.costLimit ?? .max
        while state.list.count > countLimit || state.list.totalCost > Int128(costLimit) {
            guard let removed = state.list.removeTail() else { break }
            released.append(removed)
            state.statistics.evictions += 1
        }
    }

    @usableFromInline
    func release(_ entries: inout [Removed]) {
        guard !entries.isEmpty else { return }
        ValueReleaser.release(&entries, asynchronously: releasesValuesAsynchronously)
    }

    /// Starts the periodic trim once something needs it (an age limit or an expiring entry).
    @usableFromInline
    func scheduleAutoTrimIfNeeded() {
        let needed = locked { $0.ageLimit != nil || $0.list.expiringCount > 0 }
        guard needed else { return }
        let interval = autoTrimInterval
        timer.withLock { timer in
            guard timer == nil else { return }
            timer = WeakTimer(interval: interval, target: trimTarget) { $0.cache?.trimAutomatically() }
        }
    }
}

extension MemoryCache {
    /// Lets the trim timer reach the cache without keeping it alive: the cache owns this object, the
    /// timer holds it weakly. `@unchecked Sendable` because trimming is synchronised by the cache's
    /// own lock whatever `Value` is, and trimmed values are only released, never read, elsewhere.
    private final class TrimTarget: @unchecked Sendable {
        weak var cache: MemoryCache?
    }
}

/// The memory cache shares values between threads only when the values themselves are `Sendable`.
extension MemoryCache: @unchecked Sendable where Value: Sendable {}

extension MemoryCache: CustomStringConvertible {
    public var description: String {
        "MemoryCache(\(name ?? "unnamed"): \(totalCount) entries, cost \(totalCost))"
    }
}

import Foundation

extension Cache {
    /// The value for `key` from any level, or else the result of `fill`, which is then stored in
    /// every level. However many callers miss the same key at once, `fill` runs once:
    ///
    /// - In this process, concurrent callers share one fill.
    /// - With a ``sharedTier``, processes on any machine share one fill: the first to take the
    ///   tier's fill lock runs it; the others wait, with back-off, for its result to appear in the
    ///   tier. The lock expires after `fillLockTimeToLive`, so a filler that dies holds the others
    ///   up at most that long; a filler whose `fill` throws releases it at once. A process that
    ///   has waited that long fills on its own, as each does when the tier is down.
    /// - A write or removal of the key while `fill` runs is newer than what `fill` read: the
    ///   callers get the filled value, but no level keeps it. In this process the cache sees such
    ///   writes itself; on other machines, through the shared tier's fill lock, which a removal
    ///   marks superseded (see ``SharedCacheTier/setFilledData(_:forKey:timeToLive:fillLockOwner:replacingUnusableValue:)``).
    ///   The writes of the key that this process's synchronous methods queued for the tier before
    ///   the call reach it before the fill takes the lock, so they do not count as such.
    ///
    /// ```swift
    /// let profile = try await cache.value(forKey: "user/42") {
    ///     try await fetchProfile(42)     // runs once across every replica that misses at once
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the key.
    ///   - expiresAfter: the time to live of the filled value in every level.
    ///   - fillLockTimeToLive: how long the fill lock lives; choose it above the time a fill takes.
    ///   - fill: computes the value; its error is rethrown to every caller waiting on it.
    public func value(
        forKey key: String,
        expiresAfter: Duration? = nil,
        fillLockTimeToLive: Duration = .seconds(10),
        orFill fill: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        if let value = try await value(forKey: key) { return value }
        return try await fills.value(forKey: key) {
            try await self.fillOnce(forKey: key, expiresAfter: expiresAfter, lockTimeToLive: fillLockTimeToLive, fill: fill)
        }
    }

    /// The fill of one process: looks again (another caller may have filled meanwhile), then fills
    /// under the shared tier's lock or waits for whoever holds it.
    private func fillOnce(
        forKey key: String,
        expiresAfter: Duration?,
        lockTimeToLive: Duration,
        fill: @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let tierLink else {
            if let value = try await value(forKey: key) { return value }
            return try await fillAndStore(key: key, expiresAfter: expiresAfter, fill: fill)
        }
        let owner = UUID().uuidString
        var pause = FillWait.first
        let started = ContinuousClock.now
        while true {
            if let value = try await value(forKey: key) { return value }
            switch await tierLink.acquireFillLock(forKey: key, owner: owner, timeToLive: lockTimeToLive) {
            case .unavailable:
                return try await fillAndStore(key: key, expiresAfter: expiresAfter, fill: fill)
            case .acquired:
                do {
                    // The previous holder may have stored its result just before releasing the lock.
                    let value: Value
                    let lookup = localWrites.beginLookup(key)
                    defer { localWrites.endLookup(lookup) }
                    let entry = localWrites.mayStore(lookup) ? await tierLink.entry(forKey: key) : nil
                    if let entry, let stored = try await promoteFromSharedTier(entry, forKey: key, lookup: lookup, link: tierLink) {
                        value = stored
                    } else {
                        // A value there that this cache cannot use is no write made during the fill.
                        let lease = SharedTierLink.FillLease(owner: owner, replacingUnusableValue: entry != nil)
                        value = try await fillAndStore(key: key, expiresAfter: expiresAfter, lease: lease, fill: fill)
                    }
                    await tierLink.releaseFillLock(forKey: key, owner: owner)
                    return value
                } catch {
                    await tierLink.releaseFillLock(forKey: key, owner: owner)
                    throw error
                }
            case .heldByOther:
                // The holder's result will appear in the tier; the loop looks again, and takes the
                // lock itself once the holder released it or it expired. A lock held longer than
                // a lock lives is no filler's (a key another program set without expiry): fill
                // without it rather than wait for ever.
                let waited = ContinuousClock.now - started
                if waited >= lockTimeToLive {
                    tierLink.recordFillLockHeldTooLong(key: key, waited: waited)
                    return try await fillAndStore(key: key, expiresAfter: expiresAfter, fill: fill)
                }
                try await Task.sleep(for: pause)
                pause = FillWait.next(after: pause)
            }
        }
    }

    /// Runs `fill` and stores its value, unless this process wrote or removed the key while it
    /// ran: that write is newer than what the fill read from its source (an invalidation after
    /// the source changed, say), and the fill's value would replace it, or bring back what was
    /// removed, until it expired. With `lease`, the shared tier's lock held for the fill,
    /// the tier likewise refuses the value after a removal or write on another machine. The
    /// callers get the value either way.
    private func fillAndStore(
        key: String, expiresAfter: Duration?, lease: SharedTierLink.FillLease? = nil,
        fill: @Sendable () async throws -> Value
    ) async throws -> Value {
        let lookup = localWrites.beginLookup(key)
        defer { localWrites.endLookup(lookup) }
        let value = try await fill()
        guard let write = localWrites.beginWrite(ifStillCurrent: lookup) else { return value }
        try await store(value, forKey: key, expiresAfter: expiresAfter, write: write, lease: lease)
        return value
    }
}

/// The pauses of a process waiting for another's fill: short at first (most fills are quick),
/// doubling up to a bound so that many waiters do not hammer the tier.
enum FillWait {
    static let first = Duration.milliseconds(5)
    static let longest = Duration.milliseconds(200)

    static func next(after pause: Duration) -> Duration { min(pause * 2, longest) }
}

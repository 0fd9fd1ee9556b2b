import Foundation
import YYDispatch

/// The fill-lock protocol: one process fills a key while the others wait for its value (see
/// ``SharedCacheTier/acquireFillLock(forKey:owner:timeToLive:)``), with the tier's errors made
/// "fill without a lock" rather than failures.
extension SharedTierLink {
    /// What an attempt to take a fill lock found.
    enum FillLock: Sendable {
        /// This caller holds the lock.
        case acquired
        /// Another process holds it.
        case heldByOther
        /// The tier failed: fill without a lock.
        case unavailable
    }

    /// The fill lock a fill's value is stored under (see
    /// ``SharedCacheTier/setFilledData(_:forKey:timeToLive:fillLockOwner:replacingUnusableValue:)``).
    struct FillLease: Sendable {
        /// Who holds the lock.
        var owner: String
        /// Whether the fill began with a value in the tier that the cache could not use.
        var replacingUnusableValue: Bool
    }

    /// Stores a fill's value under its lease; returns `false` when the tier says a removal or
    /// write of the key came while the fill ran, so that no level keeps the value. An error or a
    /// skip is a skipped write, as for ``setData(_:forKey:timeToLive:)``, and returns `true`: the
    /// tier cannot tell, and the local levels keep the value as they would without it.
    func setFilledData(_ data: Data, forKey key: String, timeToLive: Duration?, lease: FillLease) async -> Bool {
        let outcome = await write(key) { key in
            try await tier.setFilledData(
                data, forKey: key, timeToLive: timeToLive, fillLockOwner: lease.owner,
                replacingUnusableValue: lease.replacingUnusableValue)
        }
        guard outcome == .superseded else { return true }
        counters.withLock { $0.supersededFills += 1 }
        logger.info("filled value not stored: the key was removed or written elsewhere while it was filled", metadata: ["key": "\(key)"])
        return false
    }

    /// Takes the fill lock of `key` for `owner`, once the writes of `key` queued so far have been
    /// sent, so that a removal queued just before the fill cannot reach the tier after the lock
    /// is taken and mark it superseded (the fill's value would then be kept nowhere).
    func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async -> FillLock {
        await writes.flushWrites(ofKey: key)
        let key = CanonicalKey.of(key)
        do {
            return try await tier.acquireFillLock(forKey: key, owner: owner, timeToLive: timeToLive) ? .acquired : .heldByOther
        } catch {
            counters.withLock { $0.errors += 1 }
            logger.warning("shared tier fill lock failed; filling without it", metadata: ["key": "\(key)", "error": "\(error)"])
            return .unavailable
        }
    }

    /// Releases the fill lock of `key` if `owner` still holds it; an error leaves it to expire.
    func releaseFillLock(forKey key: String, owner: String) async {
        let key = CanonicalKey.of(key)
        do {
            try await tier.releaseFillLock(forKey: key, owner: owner)
        } catch {
            // The lock expires by itself; others wait at most its time to live.
            counters.withLock { $0.errors += 1 }
            logger.warning("shared tier fill lock release failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    /// Logs a fill lock that stayed taken longer than a lock lives, so that the caller filled
    /// without it.
    func recordFillLockHeldTooLong(key: String, waited: Duration) {
        logger.warning(
            "shared tier fill lock held longer than it lives; filling without it",
            metadata: ["key": "\(key)", "waited": "\(waited)"])
    }
}

import Foundation
import Logging
import YYDispatch

/// `Cache`'s connection to its ``SharedCacheTier``: turns every error of the tier into a miss or a
/// skipped write (counted and logged), sends the synchronous API's writes in order, and gives the
/// tier keys in their ``CanonicalKey`` form, as the disk stores them (`"é"` and `"e\u{301}"` are
/// one key on every level, so the tier never serves the other spelling's old value).
///
/// The synchronous `Cache` methods cannot wait for a remote tier, so their writes and removals go
/// into a ``SharedTierWriteQueue``; the async methods send their own and wait. The fill-lock
/// protocol is in `SharedTierLink+FillLock.swift`.
final class SharedTierLink: Sendable {
    /// A write of the synchronous API (see ``SharedTierWriteQueue/Write``).
    typealias Write = SharedTierWriteQueue.Write

    let tier: any SharedCacheTier
    let logger: Logger
    let counters = Locked(SharedTierStatistics())
    /// The synchronous API's writes on their way.
    let writes: SharedTierWriteQueue

    /// A link to `tier`; `maximumQueuedBytes` bounds the queued writes of the synchronous API
    /// (see ``SharedTierWriteQueue/init(maximumQueuedBytes:logger:counters:)``).
    init(
        tier: any SharedCacheTier, logger: Logger,
        maximumQueuedBytes: Int = SharedTierWriteQueue.defaultMaximumQueuedBytes
    ) {
        self.tier = tier
        self.logger = logger
        writes = SharedTierWriteQueue(maximumQueuedBytes: maximumQueuedBytes, logger: logger, counters: counters)
        writes.start { [self] write in
            switch write {
            case .set(let data, let key, let timeToLive): await send(data, forKey: key, timeToLive: timeToLive)
            case .remove(let key): await sendRemoval(forKey: key)
            case .barrier: break  // the queue resumes its own barriers
            }
        }
    }

    /// How many writes of `key` wait in the queue.
    func queuedWrites(forKey key: String) -> Int { writes.queuedWrites(forKey: key) }
    /// How many callers wait in ``flush()`` (for tests).
    var flushesWaiting: Int { writes.flushesWaiting }
    /// The queue's bound, in bytes.
    var maximumQueuedBytes: Int { writes.maximumQueuedBytes }

    /// Queues a write of the synchronous API (see ``SharedTierWriteQueue/enqueue(_:bounded:)``).
    func enqueue(_ write: Write) { writes.enqueue(write) }
    /// Returns once the writes queued so far have been sent.
    func flush() async { await writes.flush() }
    /// Lets the background task end once it has sent what is queued.
    func finish() { writes.finish() }

    /// What the link saw of the tier so far.
    var statistics: SharedTierStatistics { counters.withLock { $0 } }

    /// The tier's entry for `key`; `nil` on a miss, an expired entry or an error, and without
    /// asking the tier while a write or removal of the key waits in the queue: the tier still
    /// holds what it replaces or removes, which must not be promoted to the local levels (a
    /// value removed with the synchronous API stays removed). `Cache` keeps local writes under
    /// way from it itself.
    func entry(forKey key: String) async -> SharedCacheEntry? {
        let key = CanonicalKey.of(key)
        guard writes.queuedWrites(forCanonicalKey: key) == 0 else { return nil }
        do {
            guard let entry = try await tier.entry(forKey: key),
                entry.expirationDate.map({ $0 > Date() }) ?? true
            else {
                counters.withLock { $0.misses += 1 }
                return nil
            }
            counters.withLock { $0.hits += 1 }
            return entry
        } catch {
            counters.withLock {
                $0.misses += 1; $0.errors += 1
            }
            logger.warning("shared tier read failed; treated as a miss", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    /// Writes `data` for `key` (the async API), after the queued writes of `key` if there are any.
    func setData(_ data: Data, forKey key: String, timeToLive: Duration?) async {
        if await sentInQueueOrder(.set(data, key: key, timeToLive: timeToLive)) { return }
        await send(data, forKey: key, timeToLive: timeToLive)
    }

    private func send(_ data: Data, forKey key: String, timeToLive: Duration?) async {
        _ = await write(key) { key in try await tier.setData(data, forKey: key, timeToLive: timeToLive) }
    }

    /// Sends `write`, one of the async API, through the queue, and returns once it was sent, when
    /// writes of its key wait there: sent at once, it reached the tier before them, and they, older,
    /// replaced its value (or brought back the one it removed) for every machine. The queue's
    /// bound does not apply to it. Returns `false`, sending nothing, when none wait.
    private func sentInQueueOrder(_ write: Write) async -> Bool {
        guard let key = write.key, writes.queuedWrites(forKey: key) > 0 else { return false }
        writes.enqueue(write, bounded: false)
        await writes.flush()
        return true
    }

    /// Sends one write of `key` (in its canonical form); `nil` when it failed (counted, logged).
    func write(_ key: String, _ send: (String) async throws -> SharedCacheWriteOutcome) async -> SharedCacheWriteOutcome? {
        let key = CanonicalKey.of(key)
        do {
            let outcome = try await send(key)
            if outcome == .skipped { counters.withLock { $0.skippedWrites += 1 } }
            return outcome
        } catch {
            counters.withLock {
                $0.skippedWrites += 1; $0.errors += 1
            }
            logger.warning("shared tier write failed; skipped", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    /// Removes `key` (the async API), after the queued writes of `key` if there are any.
    func removeData(forKey key: String) async {
        if await sentInQueueOrder(.remove(key: key)) { return }
        await sendRemoval(forKey: key)
    }

    private func sendRemoval(forKey key: String) async {
        let key = CanonicalKey.of(key)
        do {
            try await tier.removeData(forKey: key)
        } catch {
            counters.withLock { $0.errors += 1 }
            logger.warning("shared tier removal failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    /// Counts a tier value the cache's coder could not decode.
    func recordUndecodable(key: String, error: DiskCacheError) {
        counters.withLock { $0.undecodableValues += 1 }
        logger.warning("shared tier value could not be decoded; treated as a miss", metadata: ["key": "\(key)", "error": "\(error)"])
    }
}

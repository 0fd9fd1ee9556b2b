import Foundation
import Logging
import YYDispatch

/// `Cache`'s connection to its ``SharedCacheTier``: turns every error of the tier into a miss or a
/// skipped write (counted and logged), sends the synchronous API's writes in order, and gives the
/// tier keys in their ``CanonicalKey`` form, as the disk stores them (`"é"` and `"e\u{301}"` are
/// one key on every level, so the tier never serves the other spelling's old value).
///
/// The synchronous `Cache` methods cannot wait for a remote tier, so their writes and removals go
/// into one ordered stream that a background task sends; the async methods send their own and wait.
final class SharedTierLink: Sendable {
    /// A write of the synchronous API, sent later in the order it was made.
    enum Write: Sendable {
        case set(Data, key: String, timeToLive: Duration?)
        case remove(key: String)
        /// Resumes its continuation once every write queued before it was sent.
        case barrier(CheckedContinuation<Void, Never>)

        /// The key it writes or removes.
        var key: String? {
            switch self {
            case .set(_, let key, _), .remove(let key): key
            case .barrier: nil
            }
        }

        /// What it holds while queued, roughly: the value, the key and the entry itself.
        var queuedSize: Int {
            switch self {
            case .set(let data, let key, _): data.count + key.utf8.count + 64
            case .remove(let key): key.utf8.count + 64
            case .barrier: 0
            }
        }
    }

    /// What an attempt to take a fill lock found.
    enum FillLock: Sendable {
        /// This caller holds the lock.
        case acquired
        /// Another process holds it.
        case heldByOther
        /// The tier failed: fill without a lock.
        case unavailable
    }

    let tier: any SharedCacheTier
    private let logger: Logger
    private let counters = Locked(SharedTierStatistics())
    private let pending: AsyncStream<Write>.Continuation
    /// The writes queued and not yet sent: their bytes, against ``maximumQueuedBytes``; whether
    /// writes are being skipped for it (logged once each time it starts); and their keys
    /// (canonical), with how many writes of each, which ``entry(forKey:)`` does not ask the tier
    /// for. `Cache` counts a write here before it ends its own mark of the write, so that a key
    /// is never left unmarked between the two.
    private let queue = Locked(Queue())

    private struct Queue {
        var bytes = 0
        var isFull = false
        var keys: [String: Int] = [:]
    }
    let maximumQueuedBytes: Int

    /// The default ``maximumQueuedBytes``: 64 MiB.
    static let defaultMaximumQueuedBytes = 64 << 20

    /// - Parameter maximumQueuedBytes: how many bytes of values (and keys) the synchronous API's
    ///   writes may hold while they wait to be sent. They are sent one at a time, so a tier slower
    ///   than the writes (a distant server; one that takes its timeout to fail before its circuit
    ///   opens) let the queue, and the process, grow without bound. Past it, writes are skipped,
    ///   as a write that fails is.
    init(tier: any SharedCacheTier, logger: Logger, maximumQueuedBytes: Int = SharedTierLink.defaultMaximumQueuedBytes) {
        self.tier = tier
        self.logger = logger
        self.maximumQueuedBytes = maximumQueuedBytes
        let (stream, continuation) = AsyncStream.makeStream(of: Write.self)
        pending = continuation
        // The task holds the link until the stream ends (`finish()`), so queued writes are sent
        // even after the cache is released.
        Task { [self] in
            for await write in stream {
                switch write {
                case .set(let data, let key, let timeToLive): await send(data, forKey: key, timeToLive: timeToLive)
                case .remove(let key): await sendRemoval(forKey: key)
                case .barrier(let continuation): continuation.resume()
                }
                dequeued(write)
            }
        }
    }

    var statistics: SharedTierStatistics { counters.withLock { $0 } }

    /// How many writes of `key` wait in the queue.
    func queuedWrites(forKey key: String) -> Int { queue.withLock { $0.keys[CanonicalKey.of(key)] ?? 0 } }

    /// How many callers wait in ``flush()`` (for tests).
    var flushesWaiting: Int { flushWaiters.withLock { $0 } }
    private let flushWaiters = Locked(0)

    /// Queues a write of the synchronous API, or skips it when the queue is full.
    ///
    /// - Parameter bounded: `false` for a write of the async API, which its caller waits for
    ///   (see ``sentInQueueOrder(_:)``): the queue holds at most one such write per waiting
    ///   caller, and skipped, it would leave the older queued write of its key in the tier.
    func enqueue(_ write: Write, bounded: Bool = true) {
        let size = write.queuedSize
        let key = write.key.map(CanonicalKey.of)
        let (accepted, startsSkipping) = queue.withLock { queue -> (Bool, Bool) in
            guard !bounded || queue.bytes + size <= maximumQueuedBytes else {
                defer { queue.isFull = true }
                return (false, !queue.isFull)
            }
            queue.bytes += size
            if bounded { queue.isFull = false }  // an unbounded write ends no skipping
            if let key { queue.keys[key, default: 0] += 1 }
            return (true, false)
        }
        guard accepted else {
            counters.withLock { $0.skippedWrites += 1 }
            if startsSkipping {
                logger.warning(
                    "shared tier writes skipped: more than maximumQueuedBytes wait to be sent",
                    metadata: ["maximumQueuedBytes": "\(maximumQueuedBytes)"])
            }
            return
        }
        if case .dropped = pending.yield(write) { dequeued(write) }
    }

    /// Accounts for a queued write that was sent (or dropped).
    private func dequeued(_ write: Write) {
        let size = write.queuedSize
        let key = write.key.map(CanonicalKey.of)
        queue.withLock { queue in
            queue.bytes -= size
            if let key { queue.keys.decrement(key) }
        }
    }

    /// Returns once the writes queued so far have been sent.
    func flush() async {
        flushWaiters.withLock { $0 += 1 }
        defer { flushWaiters.withLock { $0 -= 1 } }
        await withCheckedContinuation { continuation in
            // After `finish()` the stream drops what it is given; the barrier must not wait forever.
            if case .dropped = pending.yield(.barrier(continuation)) { continuation.resume() }
        }
    }

    /// Returns once the writes of `key` queued so far have been sent: at once when none wait.
    private func flushWrites(ofKey key: String) async {
        guard queuedWrites(forKey: key) > 0 else { return }
        await flush()
    }

    /// Lets the background task end once it has sent what is queued.
    func finish() { pending.finish() }

    /// The tier's entry for `key`; `nil` on a miss, an expired entry or an error, and without
    /// asking the tier while a write or removal of the key waits in the queue: the tier still
    /// holds what it replaces or removes, which must not be promoted to the local levels (a
    /// value removed with the synchronous API stays removed). `Cache` keeps local writes under
    /// way from it itself.
    func entry(forKey key: String) async -> SharedCacheEntry? {
        let key = CanonicalKey.of(key)
        guard queue.withLock({ $0.keys[key] == nil }) else { return nil }
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

    /// Sends `write`, one of the async API, through the queue, and returns once it was sent, when
    /// writes of its key wait there: sent at once, it reached the tier before them, and they, older,
    /// replaced its value (or brought back the one it removed) for every machine. The queue's
    /// bound does not apply to it. Returns `false`, sending nothing, when none wait.
    private func sentInQueueOrder(_ write: Write) async -> Bool {
        guard let key = write.key.map(CanonicalKey.of), queue.withLock({ $0.keys[key] != nil }) else { return false }
        enqueue(write, bounded: false)
        await flush()
        return true
    }

    /// Sends one write of `key` (in its canonical form); `nil` when it failed (counted, logged).
    private func write(_ key: String, _ send: (String) async throws -> SharedCacheWriteOutcome) async -> SharedCacheWriteOutcome? {
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

    /// Takes the fill lock of `key` for `owner`, once the writes of `key` queued so far have been
    /// sent, so that a removal queued just before the fill cannot reach the tier after the lock
    /// is taken and mark it superseded (the fill's value would then be kept nowhere).
    func acquireFillLock(forKey key: String, owner: String, timeToLive: Duration) async -> FillLock {
        await flushWrites(ofKey: key)
        let key = CanonicalKey.of(key)
        do {
            return try await tier.acquireFillLock(forKey: key, owner: owner, timeToLive: timeToLive) ? .acquired : .heldByOther
        } catch {
            counters.withLock { $0.errors += 1 }
            logger.warning("shared tier fill lock failed; filling without it", metadata: ["key": "\(key)", "error": "\(error)"])
            return .unavailable
        }
    }

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

    /// Counts a tier value the cache's coder could not decode.
    func recordUndecodable(key: String, error: DiskCacheError) {
        counters.withLock { $0.undecodableValues += 1 }
        logger.warning("shared tier value could not be decoded; treated as a miss", metadata: ["key": "\(key)", "error": "\(error)"])
    }
}

extension Dictionary where Value == Int {
    /// Counts one less for `key`, dropping it at zero.
    fileprivate mutating func decrement(_ key: Key) {
        if let count = self[key], count > 1 { self[key] = count - 1 } else { self[key] = nil }
    }
}

import Foundation
import Logging
import YYDispatch

/// The writes and removals of `Cache`'s synchronous API on their way to the shared tier: one
/// ordered stream that a background task sends, bounded in bytes, with barriers that let a
/// caller wait until what was queued before has been sent.
///
/// The synchronous methods cannot wait for a remote tier, so their writes go here; the async
/// methods send their own, after the queued writes of their key (see ``SharedTierLink``).
final class SharedTierWriteQueue: Sendable {
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

    private let logger: Logger
    private let counters: Locked<SharedTierStatistics>
    private let pending: AsyncStream<Write>.Continuation
    private let stream: AsyncStream<Write>
    /// The writes queued and not yet sent: their bytes, against ``maximumQueuedBytes``; whether
    /// writes are being skipped for it (logged once each time it starts); and their keys
    /// (canonical), with how many writes of each, which ``SharedTierLink/entry(forKey:)`` does not
    /// ask the tier for. `Cache` counts a write here before it ends its own mark of the write, so that a key
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
    ///   opens) would let the queue, and the process, grow without bound. Past it, writes are
    ///   skipped, as a write that fails is.
    init(maximumQueuedBytes: Int, logger: Logger, counters: Locked<SharedTierStatistics>) {
        self.maximumQueuedBytes = maximumQueuedBytes
        self.logger = logger
        self.counters = counters
        (stream, pending) = AsyncStream.makeStream(of: Write.self)
    }

    /// Starts the background task that sends the queued writes, one at a time, through `send`
    /// (once). The task holds the queue and `send` (so the link) until the stream ends
    /// (``finish()``), so queued writes are sent even after the cache is released.
    func start(send: @escaping @Sendable (Write) async -> Void) {
        let stream = self.stream
        Task { [self] in
            for await write in stream {
                if case .barrier(let continuation) = write {
                    continuation.resume()
                } else {
                    await send(write)
                }
                dequeued(write)
            }
        }
    }

    /// How many writes of `key` wait in the queue.
    func queuedWrites(forKey key: String) -> Int { queuedWrites(forCanonicalKey: CanonicalKey.of(key)) }

    /// How many writes of `key`, already in its ``CanonicalKey`` form, wait in the queue.
    func queuedWrites(forCanonicalKey key: String) -> Int { queue.withLock { $0.keys[key] ?? 0 } }

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
    func flushWrites(ofKey key: String) async {
        guard queuedWrites(forKey: key) > 0 else { return }
        await flush()
    }

    /// Lets the background task end once it has sent what is queued.
    func finish() { pending.finish() }
}

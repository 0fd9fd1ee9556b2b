public import Dispatch

/// Low-priority work that runs on a serial queue only while the queue has nothing else to do,
/// a few items at a time (YYKit's run-loop idle scheduling, built on dispatch so that it works
/// where run-loop observers are not public API, as on Linux).
///
/// Give the queue's regular work to ``async(_:)``: the idle queue counts it, and idle work waits
/// while any is queued or running. Idle work then runs in batches of ``batchSize`` items, each
/// batch one work item of the queue; between batches it yields, so regular work that arrived
/// meanwhile runs first. A batch also ends early as soon as regular work arrives. Work that was
/// put on the queue directly, past this type, is not seen.
///
/// ```swift
/// let idle = IdleWorkQueue(queue: renderQueue)
/// idle.async { render(visibleRows) }              // regular work
/// let warm = idle.addIdleWork { cache.preload(nextPage) }
/// warm.cancel()                                   // if it is no longer wanted
/// ```
public final class IdleWorkQueue: Sendable {
    /// The serial queue everything runs on.
    public let queue: DispatchQueue
    /// Idle items run per batch before yielding to the queue.
    public let batchSize: Int

    /// Cancels one idle item that has not started yet.
    public struct Item: Sendable {
        fileprivate let id: Int
        fileprivate weak var owner: IdleWorkQueue?

        /// Keeps the item from running; does nothing once it started.
        public func cancel() {
            owner?.cancel(id)
        }
    }

    private struct State {
        var regularWork = 0
        var idleWork = IdleWorkList()
        var isBatchScheduled = false
    }

    private let state = Locked(State())

    /// An idle queue over `queue` (which must be serial) running `batchSize` items per batch
    /// (at least 1).
    public init(queue: DispatchQueue, batchSize: Int = 4) {
        self.queue = queue
        self.batchSize = max(1, batchSize)
    }

    /// Idle items waiting.
    public var pendingCount: Int { state.withLock { $0.idleWork.count } }

    /// Runs `work` on the queue as regular work: idle work waits until it is done.
    public func async(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.regularWork += 1 }
        queue.async { [self] in
            work()
            state.withLock { $0.regularWork -= 1 }
        }
    }

    /// Adds `work` to run when the queue is idle, after the idle work added before it.
    @discardableResult
    public func addIdleWork(_ work: @escaping @Sendable () -> Void) -> Item {
        let (id, schedules) = state.withLock { state -> (Int, Bool) in
            let id = state.idleWork.append(work)
            defer { state.isBatchScheduled = true }
            return (id, !state.isBatchScheduled)
        }
        if schedules { scheduleBatch() }
        return Item(id: id, owner: self)
    }

    /// Cancels every idle item that has not started.
    public func cancelAll() {
        // The items are released after the lock: a deinit of something they captured may call
        // this queue (a pthread mutex taken twice by one thread deadlocks).
        let cancelled = state.withLock { $0.idleWork.removeAll() }
        withExtendedLifetime(cancelled) {}
    }

    private func cancel(_ id: Int) {
        let cancelled = state.withLock { $0.idleWork.remove(id) }
        withExtendedLifetime(cancelled) {}
    }

    private func scheduleBatch() {
        queue.async { [self] in runBatch() }
    }

    /// One batch, on the queue. Regular work counted now was queued after this item (the queue
    /// is serial), so waiting means going behind it.
    private func runBatch() {
        for _ in 0..<batchSize {
            let next = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.regularWork == 0, !state.idleWork.isEmpty else { return nil }
                return state.idleWork.popFirst()
            }
            guard let next else { break }
            next()
        }
        let more = state.withLock { state -> Bool in
            state.isBatchScheduled = !state.idleWork.isEmpty
            return state.isBatchScheduled
        }
        if more { scheduleBatch() }
    }
}

import YYDispatch

/// Lets at most so many jobs run per group (a host) and overall; the others wait in priority order.
///
/// A waiter's priority is read when a slot frees, not when it queued, so a download whose
/// waiters raised their priority moves ahead (a prefetch that a real request joined, say).
final class ConcurrencyLimiter: Sendable {
    /// Jobs at once in one group.
    let perGroupLimit: Int
    /// Jobs at once in all.
    let totalLimit: Int

    private struct Queued {
        let id: Int
        let group: String
        let priority: @Sendable () -> ImagePriority
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running: [String: Int] = [:]
        var runningTotal = 0
        var queue: [Queued] = []
        var nextID = 0
    }

    private let state = Locked(State())

    /// A limiter; limits below 1 count as 1.
    init(perGroupLimit: Int, totalLimit: Int) {
        self.perGroupLimit = max(1, perGroupLimit)
        self.totalLimit = max(1, totalLimit)
    }

    /// Jobs waiting for a slot.
    var queuedCount: Int { state.withLock { $0.queue.count } }

    /// Jobs running now.
    var runningCount: Int { state.withLock { $0.runningTotal } }

    /// Runs `body` once a slot for `group` is free, and frees it after.
    /// - Throws: `.cancelled` when the task is cancelled while waiting, or what `body` throws.
    func withSlot<T>(group: String, priority: @escaping @Sendable () -> ImagePriority,
                     _ body: () async throws(ImagePipelineError) -> T) async throws(ImagePipelineError) -> T {
        try await acquire(group: group, priority: priority)
        defer { release(group: group) }
        return try await body()
    }

    private func acquire(group: String, priority: @escaping @Sendable () -> ImagePriority) async throws(ImagePipelineError) {
        let id = state.withLock { state -> Int? in
            if state.runningTotal < totalLimit, state.running[group, default: 0] < perGroupLimit {
                state.runningTotal += 1
                state.running[group, default: 0] += 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.queue.append(Queued(id: id, group: group, priority: priority, continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume(returning: false) }
            }
        } onCancel: {
            let removed = state.withLock { state -> Queued? in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queue.remove(at: index)
            }
            removed?.continuation.resume(returning: false)
        }
        // A slot granted just as the task was cancelled is used: the body sees the cancellation.
        guard granted else { throw .cancelled }
    }

    private func release(group: String) {
        // Priorities are read outside the lock: they call into the coalescers.
        let candidates = state.withLock { state -> [(id: Int, group: String, priority: @Sendable () -> ImagePriority)] in
            state.runningTotal -= 1
            state.running[group, default: 1] -= 1
            if state.running[group] == 0 { state.running[group] = nil }
            return state.queue.map { ($0.id, $0.group, $0.priority) }
        }
        guard !candidates.isEmpty else { return }
        let ranked = candidates.enumerated()
            .map { (order: $0.offset, id: $0.element.id, group: $0.element.group, priority: $0.element.priority()) }
            .sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.order < $1.order }
        let granted = state.withLock { state -> [Queued] in
            var granted: [Queued] = []
            for candidate in ranked where state.runningTotal < totalLimit {
                guard state.running[candidate.group, default: 0] < perGroupLimit,
                      let index = state.queue.firstIndex(where: { $0.id == candidate.id }) else { continue }
                granted.append(state.queue.remove(at: index))
                state.runningTotal += 1
                state.running[candidate.group, default: 0] += 1
            }
            return granted
        }
        for queued in granted { queued.continuation.resume(returning: true) }
    }
}

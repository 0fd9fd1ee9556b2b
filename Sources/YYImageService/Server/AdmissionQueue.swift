import DequeModule
import YYDispatch

/// At most `workers` requests at work, at most `queueLimit` more waiting for a turn; beyond
/// that a request is refused at once (429), so a burst cannot pile up memory and latency.
///
/// ```swift
/// try await admission.enter()      // 429 when full, 503 when cancelled while waiting
/// defer { admission.leave() }
/// ```
final class AdmissionQueue: Sendable {
    private struct State {
        var running = 0
        var waiting: Deque<(id: Int, continuation: CheckedContinuation<Bool, Never>)> = []
        /// Places in the queue taken by requests between deciding to wait and enqueueing: they
        /// count against the queue limit, so a burst cannot overshoot it in that gap.
        var reserved = 0
        var nextID = 0
    }

    /// Requests at work at once.
    let workers: Int
    /// Requests waiting at most.
    let queueLimit: Int
    private let state = Locked(State())

    /// A queue for `workers` (at least 1) and `queueLimit` (at least 0) waiters.
    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Requests at work and waiting.
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count + $0.reserved) } }

    /// Returns once a worker is free and taken; ``leave()`` gives it back.
    /// - Throws: 429 when every worker is busy and the queue is full, 503 when the task is
    ///   cancelled while it waits.
    func enter() async throws(ServiceError) {
        let id = try state.withLock { state throws(ServiceError) -> Int? in
            if state.running < workers {
                state.running += 1
                return nil
            }
            guard state.waiting.count + state.reserved < queueLimit else { throw .busy }
            state.reserved += 1
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admittedNow = state.withLock { state -> Bool? in
                    state.reserved -= 1
                    // A cancellation that came first finds no waiter to remove: the task does
                    // not wait at all.
                    if Task.isCancelled { return false }
                    // A worker may have left since the first look, finding no one to hand its
                    // place to: waiting now would wait for a leave that may never come.
                    if state.running < workers {
                        state.running += 1
                        return true
                    }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let admittedNow { continuation.resume(returning: admittedNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
        guard admitted else { throw .unavailable("the request was cancelled while it waited") }
    }

    /// Hands the worker to the next waiter, or frees it.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if let next = state.waiting.popFirst() { return next.continuation }
            state.running -= 1
            return nil
        }
        next?.resume(returning: true)
    }

    /// `body` run once a worker is free (see ``enter()``).
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }
}

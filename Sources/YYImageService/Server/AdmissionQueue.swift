import DequeModule
import YYDispatch

/// At most `workers` requests at work, at most `queueLimit` more waiting for a turn; beyond
/// that a request is refused at once (429), so a burst cannot pile up memory and latency.
final class AdmissionQueue: Sendable {
    private struct State {
        var running = 0
        var waiting: Deque<(id: Int, continuation: CheckedContinuation<Bool, Never>)> = []
        var nextID = 0
    }

    let workers: Int
    let queueLimit: Int
    private let state = Locked(State())

    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Requests at work and waiting.
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    /// Runs `body` once a worker is free. Throws 429 when the queue is full, and 503 when the
    /// task is cancelled while it waits.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await admit()
        defer { leave() }
        return try await body()
    }

    private func admit() async throws(ServiceError) {
        enum Decision {
            case run
            case wait(Int)
            case refuse
        }
        let decision = state.withLock { state -> Decision in
            if state.running < workers {
                state.running += 1
                return .run
            }
            guard state.waiting.count < queueLimit else { return .refuse }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch decision {
        case .run: return
        case .refuse: throw .busy
        case .wait(let id):
            let admitted = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let cancelled = state.withLock { state -> Bool in
                        // A cancellation that came first finds no waiter to remove: the task is
                        // cancelled already, so it does not wait at all.
                        if Task.isCancelled { return true }
                        state.waiting.append((id, continuation))
                        return false
                    }
                    if cancelled { continuation.resume(returning: false) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiting.remove(at: index).continuation
                }
                waiter?.resume(returning: false)
            }
            if !admitted { throw .unavailable("the request was cancelled while it waited") }
        }
    }

    /// Hands the worker to the next waiter, or frees it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if let next = state.waiting.popFirst() { return next.continuation }
            state.running -= 1
            return nil
        }
        next?.resume(returning: true)
    }
}

import YYDispatch

/// Runs at most one fill per key at a time in this process: callers that ask for a key whose fill
/// is running wait for that fill's result instead of starting their own.
///
/// The fill is shared, so it is not cancelled when a caller is: it ends when it ends, and callers
/// that come meanwhile still share it. A cancelled caller stops waiting at once, with
/// `CancellationError`, however long the fill still takes.
final class FillCoalescer<Value: Sendable>: Sendable {
    private struct State {
        /// The callers waiting for each running fill, by caller id.
        var fills: [String: [Int: CheckedContinuation<Value, any Error>]] = [:]
        var nextCaller = 0
    }

    private let state = Locked(State())

    /// What a caller found when it came to wait.
    private enum Arrival { case joined, started, cancelled }

    /// The result of the running fill of `key`, or of `fill` started now when none runs.
    func value(forKey key: String, fill: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let caller = state.withLock { state in
            state.nextCaller += 1
            return state.nextCaller
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let outcome = state.withLock { state -> Arrival in
                    // Checked under the lock that the cancellation handler takes: either it ran
                    // before (and the task is cancelled) or it will find this caller.
                    if Task.isCancelled { return .cancelled }
                    let isRunning = state.fills[key] != nil
                    state.fills[key, default: [:]][caller] = continuation
                    return isRunning ? .joined : .started
                }
                switch outcome {
                case .joined: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .started: start(key, fill)
                }
            }
        } onCancel: {
            let waiting = state.withLock { $0.fills[key]?.removeValue(forKey: caller) }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Runs `fill` in a task of its own, then gives its result to everyone waiting for `key`.
    private func start(_ key: String, _ fill: @escaping @Sendable () async throws -> Value) {
        Task { [state] in
            let result: Result<Value, any Error>
            do {
                result = .success(try await fill())
            } catch {
                result = .failure(error)
            }
            let waiting = state.withLock { $0.fills.removeValue(forKey: key) ?? [:] }
            for continuation in waiting.values { continuation.resume(with: result) }
        }
    }

    /// How many fills are running (for tests).
    var runningCount: Int { state.withLock { $0.fills.count } }
}

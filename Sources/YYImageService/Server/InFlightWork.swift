import YYDispatch

/// The requests at work, so that a shutdown that runs out of time can cancel them: each then
/// stops at its next check and is answered (503) before the server closes its connection.
final class InFlightWork: Sendable {
    private struct State {
        var nextID = 0
        var cancels: [Int: @Sendable () -> Void] = [:]
        var cancelledAll = false
    }

    private let state = Locked(State())

    /// `operation`'s value, run in a task that ``cancelAll()`` (or the caller's cancellation)
    /// cancels; `cancelledAll` says whether ``cancelAll()`` was called before it ended.
    func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> (value: T, cancelledAll: Bool) {
        let task = Task { await operation() }
        let (id, cancelledAlready) = state.withLock { state in
            state.nextID += 1
            state.cancels[state.nextID] = { task.cancel() }
            return (state.nextID, state.cancelledAll)
        }
        if cancelledAlready { task.cancel() }
        let value = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        let cancelledAll = state.withLock { state in
            state.cancels[id] = nil
            return state.cancelledAll
        }
        return (value, cancelledAll)
    }

    /// Cancels every operation at work, and every one that starts from now on.
    func cancelAll() {
        let cancels = state.withLock { state in
            state.cancelledAll = true
            return Array(state.cancels.values)
        }
        for cancel in cancels { cancel() }
    }
}

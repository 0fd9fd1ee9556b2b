import YYDispatch

/// A priority that can change, and tells its observers when it does.
///
/// Priorities are pushed, not polled: a shared job's priority is the highest of its waiters'
/// and is recomputed only when one of them comes, goes or changes, and the connection limiter
/// moves a queued download only when its priority changes, so that a cold batch of n images
/// costs O(n) lock round trips, not the O(n²) of polling every queued job whenever a connection
/// frees.
///
/// Observers are told *that* the value changed and read ``value`` themselves, under their own
/// lock: two quick changes may be announced in either order, but the last announcement comes
/// after the last change, so every observer ends on the newest value.
///
/// Observers are called on the thread that changed the value, after this signal's lock is
/// released; they must not block.
final class PrioritySignal: Sendable {
    private struct State {
        var value: ImagePriority
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
    }

    private let state: Locked<State>

    /// A signal holding `value`.
    init(_ value: ImagePriority) {
        state = Locked(State(value: value))
    }

    /// The priority now.
    var value: ImagePriority { state.withLock { $0.value } }

    /// Sets the priority; observers are told when it changed.
    func set(_ newValue: ImagePriority) {
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.value != newValue else { return [] }
            state.value = newValue
            return Array(state.observers.values)
        }
        for observer in observers { observer() }
    }

    /// Calls `observer` after every change until ``removeObserver(_:)`` with the returned token.
    func addObserver(_ observer: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.nextToken += 1
            state.observers[state.nextToken] = observer
            return state.nextToken
        }
    }

    /// Stops calling the observer `token` names. Unknown tokens are ignored.
    func removeObserver(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }
}

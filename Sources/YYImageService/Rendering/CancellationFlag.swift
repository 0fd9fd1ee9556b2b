import Synchronization

/// Set once a request's task is cancelled, for the render that runs on a render thread outside
/// any task: the renderer reads it at each of its checks.
final class CancellationFlag: Sendable {
    private let value = Atomic(false)

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { value.load(ordering: .relaxed) }

    /// Sets the flag.
    func cancel() { value.store(true, ordering: .relaxed) }
}

import Dispatch
import YYDispatch

/// Runs blocking cache work (SQLite, file I/O) on the shared utility queue pool and returns its
/// result to the awaiting task, so async callers never block a cooperative-pool thread.
func offload<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result: Result<T, Failure> = await withCheckedContinuation { continuation in
        DispatchQueuePool.shared(for: .utility).queue.async {
            continuation.resume(returning: Result { () throws(Failure) -> T in try body() })
        }
    }
    return try result.get()
}

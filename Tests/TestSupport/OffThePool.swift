import Foundation

/// `body`'s result, computed on a thread of its own at the lowest scheduling priority rather than
/// on Swift's cooperative pool.
///
/// Tests of seconds of synchronous work (a quality sweep, a reference encoder run as a child
/// process) call it so they neither hold one of the pool's few threads (two on a two-core machine)
/// nor take the cores from the suites beside them, whose servers, deadlines and real-time players
/// then run first; the sweep takes the time they leave. `body` stays on this one thread (resizes
/// with `usesAllCores` off): a Dispatch worker it caused to start would keep the low priority
/// and later run other tests' work. `#expect` belongs outside `body`: the thread is not the
/// test's task.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            lowerThisThreadsPriority()
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}

/// The calling thread (and the child processes it starts) at nice 19 on Linux, where nice is a
/// thread's own and `who` 0 names the calling thread; the background quality of service elsewhere.
private func lowerThisThreadsPriority() {
    #if os(Linux)
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    #else
    Thread.current.qualityOfService = .background
    #endif
}

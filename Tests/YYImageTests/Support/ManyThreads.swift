import Dispatch
import YYDispatch

@testable import YYImage

/// What went wrong when `picture` ran `times` times on many threads at once: an error's text,
/// or "a different picture" where it did not give `expected`. Empty when every run agreed.
func failuresOnManyThreads(_ times: Int, expecting expected: Bitmap, _ picture: @Sendable () throws -> Bitmap) -> [String] {
    let failures = Locked([String]())
    DispatchQueue.concurrentPerform(iterations: times) { _ in
        do {
            if try picture() != expected { failures.withLock { $0.append("a different picture") } }
        } catch {
            failures.withLock { $0.append("\(error)") }
        }
    }
    return failures.withLock { $0 }
}

import Foundation

/// Runs `body` on a thread of its own and waits for it at most `timeout`: a call that deadlocks
/// then fails the test that made it instead of hanging the whole run (the stuck thread is left
/// behind). True when `body` returned in time.
///
/// For calls that must never take a lock they already hold, such as releasing something whose
/// `deinit` calls back into the object that released it.
public func returnsInTime(
    _ timeout: Duration = .seconds(10),
    _ body: @escaping @Sendable () -> Void
) async -> Bool {
    let returned = DispatchSemaphore(value: 0)
    Thread {
        body()
        returned.signal()
    }.start()
    let (seconds, attoseconds) = timeout.components
    let deadline = DispatchTime.now() + .milliseconds(Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000))
    return await Task.detached { returned.wait(timeout: deadline) == .success }.value
}

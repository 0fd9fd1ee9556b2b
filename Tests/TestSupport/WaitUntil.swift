/// Waits for `condition` to hold, checking it every `interval` (a millisecond by default), for at
/// most `timeout`: how tests wait for an event they cannot be told about (a timer's tick, a
/// release) without sleeping for a guessed time. The caller then asserts the condition, so a
/// timeout fails the test. The condition may itself await (a request that succeeds once a server
/// is back).
public func waitUntil(
    timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(1),
    _ condition: () async -> Bool
) async {
    let deadline = ContinuousClock.now + timeout
    while await !condition() && ContinuousClock.now < deadline { try? await Task.sleep(for: interval) }
}

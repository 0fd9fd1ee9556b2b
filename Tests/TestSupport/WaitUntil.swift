/// How long a test waits for something due to happen before it calls it a hang: five minutes.
///
/// A hang detector, not a speed check. Swift Testing runs synchronous tests on Swift's
/// cooperative pool, one thread a core, so on a two-core machine tests decoding frames or waiting
/// for child processes can hold every async test still for a minute or more; a wait that gives up
/// sooner fails a test whose event was only late. The suites' `hangLimit` (ten minutes) is longer.
public let hangPatience: Duration = .seconds(300)

/// Waits for `condition` to hold, checking it every `interval` (a millisecond by default), for at
/// most `timeout` or until the test is cancelled: how tests wait for an event they cannot be told
/// about (a timer's tick, a release) without sleeping for a guessed time. The caller then asserts
/// the condition, so a timeout fails the test. The condition may itself await (a request that
/// succeeds once a server is back).
public func waitUntil(
    timeout: Duration = hangPatience, every interval: Duration = .milliseconds(1),
    _ condition: () async -> Bool
) async {
    let deadline = ContinuousClock.now + timeout
    while await !condition() && ContinuousClock.now < deadline && !Task.isCancelled { try? await Task.sleep(for: interval) }
}

import Foundation
import TestSupport
import YYDispatch

@testable import YYCacheRedis

/// A clock the circuit breakers read, moved by hand.
final class ManualTime: Sendable {
    private let elapsed = Locked(Duration.zero)
    var now: @Sendable () -> Duration { { [elapsed] in elapsed.withLock { $0 } } }
    func advance(by duration: Duration) { elapsed.withLock { $0 += duration } }
}

/// A client for `urls` with short timeouts and a hand-moved breaker clock.
func makeClient(
    _ urls: [String], time: ManualTime = ManualTime(), connections: Int = 2, operationTimeout: Duration = .seconds(2)
) throws -> RedisClient {
    var configuration = try RedisConfiguration(urls: urls)
    configuration.connectionsPerNode = connections
    // Loopback answers in microseconds; a generous timeout keeps a loaded CI machine from tripping it.
    configuration.operationTimeout = operationTimeout
    configuration.connectTimeout = .seconds(2)
    return RedisClient(configuration: configuration, now: time.now)
}

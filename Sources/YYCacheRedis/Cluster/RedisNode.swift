import NIOCore
import YYDispatch

/// One server: its connections and its circuit breaker.
final class RedisNode: Sendable {
    let address: RedisNodeAddress
    private let pool: RedisConnectionPool
    private let breaker: Locked<CircuitBreaker>
    private let counters = Locked(RedisNodeStatistics.Counters())
    private let operationTimeout: Duration
    private let now: @Sendable () -> Duration

    init(address: RedisNodeAddress, configuration: RedisConfiguration, group: any EventLoopGroup, now: @escaping @Sendable () -> Duration) {
        self.address = address
        pool = RedisConnectionPool(
            address: address, size: configuration.connectionsPerNode, connectTimeout: configuration.connectTimeout,
            maximumReplySize: configuration.maximumReplySize, group: group)
        breaker = Locked(CircuitBreaker(
            initialBackoff: configuration.circuitBackoff, maximumBackoff: configuration.maximumCircuitBackoff,
            probeTimeout: configuration.connectTimeout + configuration.operationTimeout))
        operationTimeout = configuration.operationTimeout
        self.now = now
    }

    /// Sends `command` unless the node's circuit is open. A connection failure, a timeout or a
    /// malformed reply opens the circuit; a server error (`-ERR`) does not: the node is well, the
    /// command was refused.
    func send(_ command: RedisCommand) async throws(RedisError) -> RESPValue {
        guard breaker.withLock({ $0.admits(at: now()) }) else {
            counters.withLock { $0.skipped += 1 }
            throw .circuitOpen(node: address.description)
        }
        counters.withLock { $0.requests += 1 }
        do {
            let connection = try await pool.connection()
            let reply = try await connection.send(command, timeout: operationTimeout)
            breaker.withLock { $0.recordSuccess() }
            return reply
        } catch {
            counters.withLock { $0.failures += 1 }
            if error.isNodeFailure {
                let instant = now()
                breaker.withLock { $0.recordFailure(at: instant) }
            } else {
                breaker.withLock { $0.recordSuccess() }
            }
            throw error
        }
    }

    var statistics: RedisNodeStatistics {
        let breaker = breaker.withLock { $0 }
        return RedisNodeStatistics(
            node: address.description, counters: counters.withLock { $0 },
            circuitOpenings: breaker.openings, isCircuitOpen: breaker.isOpen)
    }

    func close() { pool.closeAll() }
}

/// What a client saw of one node since it was created. Counters are per process.
public struct RedisNodeStatistics: Sendable, Hashable, Codable, CustomStringConvertible {
    struct Counters: Sendable, Hashable {
        var requests = 0
        var failures = 0
        var skipped = 0
    }

    /// The node, `host:port`.
    public var node: String
    /// Requests sent.
    public var requests: Int
    /// Requests that failed (timeouts, broken connections, server errors).
    public var failures: Int
    /// Requests not sent because the node's circuit was open.
    public var skippedWhileOpen: Int
    /// How many times the node's circuit has opened.
    public var circuitOpenings: Int
    /// Whether the node is being skipped (or tried by one request) now.
    public var isCircuitOpen: Bool

    init(node: String, counters: Counters, circuitOpenings: Int, isCircuitOpen: Bool) {
        self.node = node
        requests = counters.requests
        failures = counters.failures
        skippedWhileOpen = counters.skipped
        self.circuitOpenings = circuitOpenings
        self.isCircuitOpen = isCircuitOpen
    }

    public var description: String {
        "\(node): requests \(requests), failures \(failures), skipped \(skippedWhileOpen), "
            + "circuit \(isCircuitOpen ? "open" : "closed") (opened \(circuitOpenings)×)"
    }
}

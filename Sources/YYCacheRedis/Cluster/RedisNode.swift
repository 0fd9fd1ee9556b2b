import NIOCore
import YYDispatch

/// One server: its connections and its circuit breaker.
final class RedisNode: Sendable {
    let address: RedisNodeAddress
    let pool: RedisConnectionPool
    /// The breaker and the counters under one lock: each request takes it once before it is
    /// sent and once when it ends.
    private let state: Locked<(breaker: CircuitBreaker, counters: RedisNodeStatistics.Counters)>
    private let operationTimeout: Duration
    private let now: @Sendable () -> Duration

    init(
        address: RedisNodeAddress, configuration: RedisConfiguration, tls: TLSConnector?, group: any EventLoopGroup,
        home: any EventLoop, now: @escaping @Sendable () -> Duration
    ) {
        self.address = address
        // Settings out of range are brought into it, as the configuration's documentation says.
        pool = RedisConnectionPool(
            address: address, tls: tls, size: max(1, configuration.connectionsPerNode), connectTimeout: configuration.connectTimeout,
            maximumReplySize: configuration.maximumReplySize, group: group, home: home)
        let initialBackoff = max(configuration.circuitBackoff, .milliseconds(1))
        let breaker = CircuitBreaker(
            initialBackoff: initialBackoff, maximumBackoff: max(configuration.maximumCircuitBackoff, initialBackoff),
            probeTimeout: configuration.connectTimeout + configuration.operationTimeout)
        state = Locked((breaker, RedisNodeStatistics.Counters()))
        operationTimeout = configuration.operationTimeout
        self.now = now
    }

    /// Sends `command` unless the node's circuit is open. A connection failure, a timeout or a
    /// malformed reply opens the circuit; a server error (`-ERR`) does not: the node is well, the
    /// command was refused. With `asking`, `ASKING` goes first on the same connection (a Redis
    /// Cluster `ASK` redirection).
    func send(_ command: RedisCommand, asking: Bool = false) async throws(RedisError) -> RESPValue {
        let instant = now()
        let admitted = state.withLock { state in
            let admitted = state.breaker.admits(at: instant)
            if admitted { state.counters.requests += 1 } else { state.counters.skipped += 1 }
            return admitted
        }
        guard admitted else { throw .circuitOpen(node: address.description) }
        do {
            let connection = try await pool.connection()
            let reply =
                asking
                ? try await connection.sendAsking(command, timeout: operationTimeout)
                : try await connection.send(command, timeout: operationTimeout)
            state.withLock { $0.breaker.recordSuccess() }
            return reply
        } catch {
            let instant = error.isNodeFailure ? now() : nil
            let redirected = error.clusterRedirect != nil
            state.withLock { state in
                if redirected { state.counters.redirects += 1 } else { state.counters.failures += 1 }
                if let instant { state.breaker.recordFailure(at: instant) } else { state.breaker.recordSuccess() }
            }
            throw error
        }
    }

    var statistics: RedisNodeStatistics {
        let (breaker, counters) = state.withLock { $0 }
        return RedisNodeStatistics(
            node: address.description, counters: counters,
            circuitOpenings: breaker.openings, isCircuitOpen: breaker.isOpen)
    }

    /// Whether the node's circuit is open (or one request is probing it): it failed recently.
    var isCircuitOpen: Bool { state.withLock { $0.breaker.isOpen } }

    func close() { pool.closeAll() }
}

/// What a client saw of one node since it was created. Counters are per process.
public struct RedisNodeStatistics: Sendable, Hashable, Codable, CustomStringConvertible {
    struct Counters: Sendable, Hashable {
        var requests = 0
        var failures = 0
        var skipped = 0
        var redirects = 0
    }

    /// The node, `host:port`.
    public var node: String
    /// Requests sent.
    public var requests: Int
    /// Requests that failed (timeouts, broken connections, server errors).
    public var failures: Int
    /// Requests a Redis Cluster node sent elsewhere (`MOVED`, `ASK`); not failures.
    public var redirects: Int
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
        redirects = counters.redirects
        skippedWhileOpen = counters.skipped
        self.circuitOpenings = circuitOpenings
        self.isCircuitOpen = isCircuitOpen
    }

    public var description: String {
        "\(node): requests \(requests), failures \(failures), redirects \(redirects), skipped \(skippedWhileOpen), "
            + "circuit \(isCircuitOpen ? "open" : "closed") (opened \(circuitOpenings)×)"
    }
}

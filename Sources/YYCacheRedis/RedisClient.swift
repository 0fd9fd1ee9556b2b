public import NIOCore
import NIOPosix

/// A small Redis client for caches: a connection pool per node with pipelining, a timeout on every
/// request, a circuit breaker per node, and keys spread over independent servers by consistent
/// hashing.
///
/// It speaks RESP2 and sends any command; ``RedisCacheTier`` uses `GET`, `SET … PX`, `SET … NX PX`,
/// `DEL` and `EVAL`. Not supported: TLS, Redis Cluster's redirections, pub/sub.
///
/// ```swift
/// let client = try RedisClient(urls: ["redis://127.0.0.1:6379"])
/// let reply = try await client.send(RedisCommand("PING"))     // .simpleString("PONG")
/// await client.close()
/// ```
public final class RedisClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: RedisConfiguration
    /// A task executor on one of the event loops that run the client's connections.
    ///
    /// An `await` of a request from the shared concurrency pool costs two thread switches: the
    /// request goes over to the connection's event loop, the reply comes back to a pool thread. On
    /// loopback that is about half of each round trip. Code that makes one request at a time runs
    /// without them under this executor:
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(client.taskExecutor) {
    ///     for key in keys { try await client.send(RedisCommand("GET", [key]), key: ByteBuffer(string: key)) }
    /// }
    /// ```
    ///
    /// Requests made there use a connection of that event loop (opened there if needed). Keep such
    /// code to awaiting requests: anything slow or blocking in it holds up every connection the
    /// loop serves.
    public var taskExecutor: any TaskExecutor { loopExecutor }
    let nodes: [RedisNode]
    private let ring: HashRing
    let loopExecutor: EventLoopTaskExecutor

    /// A client for `configuration.nodes`; nothing connects until the first request.
    public convenience init(configuration: RedisConfiguration) {
        let origin = ContinuousClock.now
        self.init(configuration: configuration, now: { ContinuousClock.now - origin })
    }

    /// A client for servers given as `redis://` URLs, with the default settings.
    public convenience init(urls: [String]) throws(RedisError) {
        self.init(configuration: try RedisConfiguration(urls: urls))
    }

    /// A client whose circuit breakers read `now` (tests move it by hand).
    init(configuration: RedisConfiguration, now: @escaping @Sendable () -> Duration) {
        precondition(!configuration.nodes.isEmpty, "a Redis client needs at least one node")
        self.configuration = configuration
        let group = MultiThreadedEventLoopGroup.singleton
        nodes = configuration.nodes.map { RedisNode(address: $0, configuration: configuration, group: group, now: now) }
        loopExecutor = EventLoopTaskExecutor(eventLoop: group.next())
        ring = HashRing(names: configuration.nodes.map(\.description))
    }

    /// Sends `command` to the node that owns `key` (the first node when `key` is `nil`).
    ///
    /// - Throws: ``RedisError``: the server's refusal as ``RedisError/server(node:message:)``, and
    ///   ``RedisError/circuitOpen(node:)`` without sending when the node failed recently.
    @discardableResult
    public func send(_ command: RedisCommand, key: ByteBuffer? = nil) async throws(RedisError) -> RESPValue {
        try await node(forKey: key).send(command)
    }

    /// Sends `command` to every node at once (`PING`, `INFO`), with each node's reply or error, in
    /// the order of ``RedisConfiguration/nodes``.
    public func sendToEachNode(_ command: RedisCommand) async -> [(node: RedisNodeAddress, reply: Result<RESPValue, RedisError>)] {
        await withTaskGroup(of: (Int, Result<RESPValue, RedisError>).self) { group in
            for (index, node) in nodes.enumerated() {
                group.addTask {
                    do throws(RedisError) {
                        return (index, .success(try await node.send(command)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var replies = [Result<RESPValue, RedisError>?](repeating: nil, count: nodes.count)
            for await (index, reply) in group { replies[index] = reply }
            return zip(nodes, replies).map { ($0.address, $1!) }
        }
    }

    /// The address of the node that owns `key`.
    public func nodeAddress(forKey key: ByteBuffer) -> RedisNodeAddress {
        node(forKey: key).address
    }

    /// Per-node counters and circuit states.
    public var nodeStatistics: [RedisNodeStatistics] { nodes.map(\.statistics) }

    /// Closes every connection. Requests after this fail.
    public func close() async {
        for node in nodes { node.close() }
    }

    private func node(forKey key: ByteBuffer?) -> RedisNode {
        guard nodes.count > 1, let key else { return nodes[0] }
        let hash = key.withUnsafeReadableBytes { XXHash64.hash($0) }
        return nodes[ring.owner(ofHash: hash)]
    }
}

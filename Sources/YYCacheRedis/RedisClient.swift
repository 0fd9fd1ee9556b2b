public import NIOCore
import NIOPosix

/// A small Redis client for caches: a connection pool per node with pipelining, a timeout on every
/// request, a circuit breaker per node, and keys spread over independent servers by consistent
/// hashing, or over a Redis Cluster by its hash slots (``RedisConfiguration/topology``); TLS to
/// `rediss://` nodes.
///
/// It speaks RESP2 and sends any command; ``RedisCacheTier`` uses `GET`, `SET … PX`, `SET … NX PX`,
/// `DEL` and `EVAL`. Not supported: pub/sub, reads from cluster replicas.
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
    /// loopback that is a tenth to a third of each round trip. Code that makes one request at a
    /// time runs without them under this executor:
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(client.taskExecutor) {
    ///     for key in keys { try await client.send(RedisCommand("GET", [key]), key: ByteBuffer(string: key)) }
    /// }
    /// ```
    ///
    /// Requests made there use a connection of that event loop (opened there if needed). Keep such
    /// code to awaiting requests: anything slow or blocking in it holds up every connection the
    /// loop serves. A program that makes NIO's event loops Swift's global executor at start-up
    /// (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`)
    /// has the same from every task, with the same rule: the client's loops are that group's.
    public var taskExecutor: any TaskExecutor { loopExecutor }
    private let routing: Routing
    let loopExecutor: EventLoopTaskExecutor

    /// Where a key's node comes from.
    private enum Routing: Sendable {
        /// Independent servers: the nodes, in configuration order, and the ring over them.
        case ring([RedisNode], HashRing)
        /// A Redis Cluster's slot map.
        case cluster(ClusterRouter)
    }

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
        // The executor's loop is the pools' home: a node's first connection opens there.
        let home = group.next()
        // Typed: without the RedisTLS trait the connector type has no values, and it is always nil.
        let tls: TLSConnector? = TLSConnector.forClient(of: configuration)
        switch configuration.topology {
        case .independent:
            let nodes = configuration.nodes.map {
                RedisNode(address: $0, configuration: configuration, tls: tls, group: group, home: home, now: now)
            }
            routing = .ring(nodes, HashRing(names: configuration.nodes.map(\.description)))
        case .cluster:
            routing = .cluster(
                ClusterRouter(seeds: configuration.nodes, now: now) { address in
                    RedisNode(address: address, configuration: configuration, tls: tls, group: group, home: home, now: now)
                })
        }
        loopExecutor = EventLoopTaskExecutor(eventLoop: home)
    }

    /// Sends `command` to the node that owns `key` (the first node when `key` is `nil`).
    ///
    /// - Throws: ``RedisError``: the server's refusal as ``RedisError/server(node:message:)``, and
    ///   ``RedisError/circuitOpen(node:)`` without sending when the node failed recently.
    ///   In a cluster, a `MOVED` or `ASK` reply is followed to the node it names (at most
    ///   ``RedisConfiguration/maximumRedirects`` times) and `key` decides the slot; a command
    ///   without a key goes to the master of slot 0.
    @discardableResult
    public func send(_ command: RedisCommand, key: ByteBuffer? = nil) async throws(RedisError) -> RESPValue {
        switch routing {
        case .ring(let nodes, let ring):
            return try await Self.node(forKey: key, of: nodes, ring: ring).send(command)
        case .cluster(let router):
            return try await send(command, slot: key.map(HashSlot.of) ?? 0, router: router)
        }
    }

    /// Sends `command` to the node serving `slot` and follows the cluster's redirections.
    private func send(_ command: RedisCommand, slot: Int, router: ClusterRouter) async throws(RedisError) -> RESPValue {
        var node = await router.node(forSlot: slot)
        var asking = false
        var redirects = 0
        while true {
            do {
                return try await node.send(command, asking: asking)
            } catch {
                guard let redirect = error.clusterRedirect, redirects < configuration.maximumRedirects else { throw error }
                redirects += 1
                let target = router.node(host: redirect.host, port: redirect.port, namedBy: node)
                if redirect.kind == .moved { router.moved(slot: redirect.slot, to: target) }
                node = target
                asking = redirect.kind == .ask
            }
        }
    }

    /// The nodes: independent servers in configuration order, or a cluster's masters (its seeds
    /// before the slot map is loaded).
    var nodes: [RedisNode] {
        switch routing {
        case .ring(let nodes, _): nodes
        case .cluster(let router): router.masters
        }
    }

    /// Sends `command` to every node at once (`PING`, `INFO`), with each node's reply or error: in
    /// the order of ``RedisConfiguration/nodes`` for independent servers, to every master of a
    /// cluster (loading its slot map first if needed).
    public func sendToEachNode(_ command: RedisCommand) async -> [(node: RedisNodeAddress, reply: Result<RESPValue, RedisError>)] {
        if case .cluster(let router) = routing, !router.isLoaded { await router.reload() }
        let nodes = self.nodes
        return await withTaskGroup(of: (Int, Result<RESPValue, RedisError>).self) { group in
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

    /// The address of the node that owns `key` (in a cluster: the master serving its slot as far
    /// as the client knows now, a seed before it has loaded the slot map).
    public func nodeAddress(forKey key: ByteBuffer) -> RedisNodeAddress {
        switch routing {
        case .ring(let nodes, let ring): Self.node(forKey: key, of: nodes, ring: ring).address
        case .cluster(let router): router.knownNode(forSlot: HashSlot.of(key)).address
        }
    }

    /// Per-node counters and circuit states: every node the client has used or learnt of.
    public var nodeStatistics: [RedisNodeStatistics] {
        switch routing {
        case .ring(let nodes, _): nodes.map(\.statistics)
        case .cluster(let router): router.knownNodes.map(\.statistics)
        }
    }

    /// Closes every connection. Requests after this fail. Releasing the client's last reference
    /// closes them too, without waiting.
    public func close() async {
        closeConnections()
    }

    // A client dropped without `close()` closes its connections too: their event loops would
    // otherwise keep them open, and a slot of the server's `maxclients` taken, for the life of
    // the process (a program making a client per request would run the server out of them).
    deinit {
        closeConnections()
    }

    private func closeConnections() {
        switch routing {
        case .ring(let nodes, _): for node in nodes { node.close() }
        case .cluster(let router): router.close()
        }
    }

    private static func node(forKey key: ByteBuffer?, of nodes: [RedisNode], ring: HashRing) -> RedisNode {
        guard nodes.count > 1, let key else { return nodes[0] }
        let hash = key.withUnsafeReadableBytes { XXHash64.hash($0) }
        return nodes[ring.owner(ofHash: hash)]
    }
}

#if RedisTLS
public import NIOSSL
#endif

/// How a ``RedisClient`` reaches its servers and how long it waits for them.
///
/// The defaults suit a cache: a Redis on the local network answers in well under a millisecond, so
/// a request that takes 250 ms means the node is in trouble, and waiting longer would make the
/// cache slower than no cache.
public struct RedisConfiguration: Sendable {
    /// The servers. With several independent ones, keys are spread over them by consistent
    /// hashing; every process must list the same addresses (the same spelling: `localhost` is not
    /// `127.0.0.1`). For a cluster (``topology``), the nodes the client first asks for its map.
    /// Never empty: ``init(urls:)`` refuses no URLs, and a client made from an emptied list stops
    /// the program (a precondition), as a client with nowhere to send anything is a mistake.
    public var nodes: [RedisNodeAddress]
    /// How keys are spread over ``nodes``.
    public enum Topology: Sendable, Hashable {
        /// Independent servers, each owning the keys that consistent hashing gives it (the default).
        case independent
        /// One Redis Cluster: ``nodes`` are seeds the client asks for the cluster's slot map (one
        /// is enough, more survive one being down). Each key goes to the master serving its hash
        /// slot; `MOVED` and `ASK` redirections are followed, at most ``maximumRedirects`` per
        /// request, and a `MOVED` reloads the map. Databases other than 0 do not exist there.
        case cluster
    }

    /// How keys are spread over ``nodes`` (default ``Topology/independent``).
    public var topology = Topology.independent
    /// The most redirections a request follows in a cluster before it fails with the last one
    /// (default 5).
    public var maximumRedirects = 5
    /// Connections per node, opened when first needed; requests are pipelined on them. Default 1,
    /// as Lettuce and StackExchange.Redis do: one pipelined connection carries a node's traffic,
    /// and each further one puts another event loop thread to work beside the callers. On the
    /// 2-core benchmark machine, 32 callers' 100 KB reads ran at about 26k/s on 1 connection
    /// against 21k/s on 2 or 4, with small values as fast (`--connections` of `RedisBenchmarks`).
    /// More can pay when the client has cores to spare and the values are large. At least 1.
    public var connectionsPerNode = 1
    /// How long one request may wait for its reply before it fails. Default 250 ms.
    public var operationTimeout: Duration = .milliseconds(250)
    /// How long opening a connection may take, and then a TLS handshake on it. Default 250 ms.
    public var connectTimeout: Duration = .milliseconds(250)
    /// How long a node that failed is skipped before one request tries it again. Default 1 s (at
    /// least 1 ms); it doubles while the node keeps failing, up to ``maximumCircuitBackoff``.
    public var circuitBackoff: Duration = .seconds(1)
    /// The longest a failing node is skipped between tries. Default 30 s; never less than
    /// ``circuitBackoff``.
    public var maximumCircuitBackoff: Duration = .seconds(30)
    /// The largest bulk reply accepted; a server announcing a larger one is treated as broken.
    /// Default 64 MB.
    public var maximumReplySize = 64 << 20
    #if RedisTLS
    /// TLS for the nodes whose addresses say so (`rediss://`, ``RedisNodeAddress/usesTLS``). By
    /// default the system's trust roots and full verification: the certificate must name the host
    /// of the URL (or, for an IP address, that address). A private CA goes in `trustRoots`
    /// (`.file(path)` of PEM certificates); a client certificate, for servers run with
    /// `tls-auth-clients yes`, in `certificateChain` and `privateKey`. A setting that cannot be
    /// loaded (a missing file) makes every TLS connection fail, which the client reports as
    /// ``RedisError/connectionFailed(node:message:)``.
    public var tls: TLSConfiguration = .makeClientConfiguration()
    #endif

    /// A configuration for `nodes`.
    public init(nodes: [RedisNodeAddress]) {
        self.nodes = nodes
    }

    /// A configuration for servers given as `redis://[user:password@]host[:port][/db]` URLs
    /// (`rediss://` for TLS).
    ///
    /// - Throws: ``RedisError/invalidURL(_:reason:)`` for a URL that cannot be used, or no URL.
    public init(urls: [String]) throws(RedisError) {
        guard !urls.isEmpty else { throw .invalidURL("", reason: "no Redis URL given") }
        var nodes: [RedisNodeAddress] = []
        for url in urls { nodes.append(try RedisNodeAddress(url: url)) }
        guard Set(nodes.map(\.description)).count == nodes.count else {
            throw .invalidURL(urls.joined(separator: ","), reason: "a node is listed twice")
        }
        self.init(nodes: nodes)
    }
}

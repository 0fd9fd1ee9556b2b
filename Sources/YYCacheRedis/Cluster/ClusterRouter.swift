import YYDispatch

/// Which node of a Redis Cluster serves which hash slot, learnt from `CLUSTER SLOTS` and kept up to
/// date by `MOVED` redirections.
///
/// The map is loaded on first use from any node that answers (the seeds first). A `MOVED` reply
/// moves its slot at once and starts a reload of the whole map in the background (a resharding
/// usually moves many slots); reloads never run two at a time. A request for a slot the map leaves
/// uncovered reloads it too (at most once per ``uncoveredReloadInterval``): the node that gave the
/// map may have known less than the cluster does now, as a node restarted from an old
/// configuration file does. Nodes are made on first sight and kept: a node that leaves the map may
/// come back, and keeping it keeps its circuit breaker.
final class ClusterRouter: Sendable {
    private struct State {
        var owners = [RedisNode?](repeating: nil, count: HashSlot.count)
        /// Every node seen, by `host:port`.
        var nodes: [String: RedisNode] = [:]
        /// In the order first seen: seeds, then nodes the map or a redirection named.
        var order: [RedisNode] = []
        var isLoaded = false
        /// When a request for an uncovered slot last reloaded the map.
        var lastUncoveredReload: Duration?
        var reload: Task<Void, Never>?
        var isClosed = false
    }

    private let state = Locked(State())
    private let seeds: [RedisNodeAddress]
    private let makeNode: @Sendable (RedisNodeAddress) -> RedisNode
    private let now: @Sendable () -> Duration

    /// How often at most requests for slots the map leaves uncovered reload it: a slot no master
    /// serves (the cluster is down for it) costs one `CLUSTER SLOTS` a second, not one a request.
    static let uncoveredReloadInterval = Duration.seconds(1)

    /// A router over the cluster `seeds` belong to; `makeNode` makes the node for an address, and
    /// `now` (the circuit breakers' clock) spaces the reloads for uncovered slots.
    init(
        seeds: [RedisNodeAddress], now: @escaping @Sendable () -> Duration,
        makeNode: @escaping @Sendable (RedisNodeAddress) -> RedisNode
    ) {
        precondition(!seeds.isEmpty, "a cluster needs at least one seed")
        self.seeds = seeds
        self.now = now
        self.makeNode = makeNode
        for seed in seeds { _ = node(host: seed.host, port: seed.port) }
    }

    /// The node that serves `slot`: from the map, loaded first if it never was, and reloaded first
    /// if it leaves `slot` uncovered (see ``uncoveredReloadInterval``). When no node serves it or
    /// no node answered, a node that is not failing (see ``knownNode(forSlot:)``): its answer,
    /// `MOVED` or `CLUSTERDOWN`, or its failure then says what happens.
    func node(forSlot slot: Int) async -> RedisNode {
        if let owner = state.withLock({ $0.owners[slot] }) { return owner }
        // The clock is read only off the common path, where the map has an owner.
        let instant = now()
        let (owner, mustReload) = state.withLock { state -> (RedisNode?, Bool) in
            if let owner = state.owners[slot] { return (owner, false) }  // loaded meanwhile
            guard state.isLoaded else { return (nil, true) }
            if let last = state.lastUncoveredReload, instant - last < Self.uncoveredReloadInterval { return (nil, false) }
            state.lastUncoveredReload = instant
            return (nil, true)
        }
        if let owner { return owner }
        if mustReload { await reload() }
        return knownNode(forSlot: slot)
    }

    /// The node serving `slot` as far as the map says now. When it does not say: the first node
    /// whose circuit is closed (the map's masters first, then every node seen), so that a dead
    /// first seed does not fail every request for such a slot; the first seed when all are failing.
    func knownNode(forSlot slot: Int) -> RedisNode {
        let (owner, owners, candidates) = state.withLock { state in (state.owners[slot], state.owners, state.order) }
        if let owner { return owner }
        // The map's masters in slot order, each asked once per run of its slots: usually the
        // first one answers, so the 16384 slots are not gathered into a list first. The breakers
        // are read outside the router's lock: a node's lock is never taken under it.
        var asked: RedisNode?
        for case let master? in owners where master !== asked {
            if !master.isCircuitOpen { return master }
            asked = master
        }
        return candidates.first { !$0.isCircuitOpen } ?? candidates[0]
    }

    /// The node at `host:port`, made if it is new. It logs in as the seeds do, with TLS when they
    /// use it; database 0, the only one a cluster has.
    func node(host: String, port: Int) -> RedisNode {
        let key = RedisNodeAddress(host: host, port: port).description
        let (node, isClosed) = state.withLock { state in
            if let known = state.nodes[key] { return (known, state.isClosed) }
            let seed = seeds[0]
            let node = makeNode(RedisNodeAddress(host: host, port: port, user: seed.user, password: seed.password, usesTLS: seed.usesTLS))
            state.nodes[key] = node
            state.order.append(node)
            return (node, state.isClosed)
        }
        // A node first seen after `close()` (a late redirection) opens no connection either.
        if isClosed { node.close() }
        return node
    }

    /// The node at `host:port` as `answering` named it in a reply: an empty host, how a server
    /// writes an endpoint it does not know, is `answering`'s own host.
    func node(host: String, port: Int, namedBy answering: RedisNode) -> RedisNode {
        node(host: host.isEmpty ? answering.address.host : host, port: port)
    }

    /// Records a `MOVED`: `slot` is served by `node` from now on, and the rest of the map is
    /// reloaded in the background.
    func moved(slot: Int, to node: RedisNode) {
        state.withLock { $0.owners[slot] = node }
        startReload()
    }

    /// Every node seen, seeds first.
    var knownNodes: [RedisNode] { state.withLock { $0.order } }

    /// The masters the map names, in slot order, each once; the seeds before the map is loaded.
    var masters: [RedisNode] {
        state.withLock { state in
            var seen = Set<ObjectIdentifier>()
            let masters = state.owners.compactMap { $0 }.filter { seen.insert(ObjectIdentifier($0)).inserted }
            return masters.isEmpty ? Array(state.order.prefix(seeds.count)) : masters
        }
    }

    /// Whether a node has given the map yet.
    var isLoaded: Bool { state.withLock { $0.isLoaded } }

    /// Loads the map now, or waits for the load under way.
    func reload() async {
        await startReload()?.value
    }

    /// Stops reloading and closes every node's connections.
    func close() {
        let (nodes, reload) = state.withLock { state in
            state.isClosed = true
            return (state.order, state.reload)
        }
        reload?.cancel()
        for node in nodes { node.close() }
    }

    @discardableResult
    private func startReload() -> Task<Void, Never>? {
        state.withLock { state in
            if state.isClosed { return nil }
            if let running = state.reload { return running }
            let task = Task { await self.loadMap() }
            state.reload = task
            return task
        }
    }

    /// Asks the known nodes in turn (those serving slots first, then the others) for the map and
    /// takes the first answer. When none answers the old map stays, and a map never loaded is
    /// asked for again by the next request (nodes that failed are skipped fast meanwhile: their
    /// circuits are open).
    private func loadMap() async {
        defer { state.withLock { $0.reload = nil } }
        var asked = Set<ObjectIdentifier>()
        for candidate in masters + knownNodes where asked.insert(ObjectIdentifier(candidate)).inserted {
            guard !Task.isCancelled else { return }
            guard let reply = try? await candidate.send(RedisCommand("CLUSTER", ["SLOTS"])),
                let ranges = try? ClusterSlotRange.parse(reply, node: candidate.address.description)
            else { continue }
            var owners = [RedisNode?](repeating: nil, count: HashSlot.count)
            for range in ranges {
                let owner = node(host: range.host, port: range.port, namedBy: candidate)
                for slot in range.slots { owners[slot] = owner }
            }
            state.withLock { state in
                state.owners = owners
                state.isLoaded = true
            }
            return
        }
    }
}

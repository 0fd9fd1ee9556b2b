import Foundation

/// A Redis Cluster of the test's own: `masters` redis-servers on loopback in cluster mode
/// (persistence off), each serving an equal run of the 16384 slots, joined with `CLUSTER MEET`.
/// Ready once every node says `cluster_state:ok` and knows every other; stopped when released
/// (its servers are). Administered with `redis-cli`, which Debian's redis-server brings along.
public final class RedisCluster: Sendable {
    /// The nodes, in the order of their slot runs.
    public let servers: [RedisServer]
    private let folder: TemporaryDirectory

    /// The number of slots of a Redis Cluster.
    public static let slotCount = 16384

    /// The path of `redis-cli`, or `nil` when it is not installed.
    public static let cliExecutable = ChildProcess.systemExecutable("redis-cli")

    private init(servers: [RedisServer], folder: TemporaryDirectory) {
        self.servers = servers
        self.folder = folder
    }

    /// The nodes' URLs, `redis://127.0.0.1:PORT`.
    public var urls: [String] { servers.map(\.url) }

    /// Starts `masters` servers and makes them one cluster.
    public static func start(masters: Int = 3) async throws -> RedisCluster {
        let folder = TemporaryDirectory("redis-cluster")
        // Bus ports are given: the default, port + 10000, may be past 65535 for an ephemeral port.
        var busPorts: [Int] = []
        var servers: [RedisServer] = []
        for index in 0..<masters {
            // A bus port found free can be taken before the server binds it (once, beside a
            // sanitizer run), and the server's own retries keep its arguments: try another.
            var attempt = 0
            while true {
                let busPort = try LoopbackPort.unused()
                do {
                    servers.append(
                        try RedisServer(arguments: [
                            "--cluster-enabled", "yes", "--cluster-port", String(busPort),
                            "--cluster-config-file", "nodes-\(index).conf", "--dir", folder.path, "--cluster-node-timeout", "5000",
                            // With a master down, the others go on serving their slots (tests of dead nodes).
                            "--cluster-require-full-coverage", "no",
                        ]))
                    busPorts.append(busPort)
                    break
                } catch {
                    attempt += 1
                    if attempt == 5 { throw error }
                    // The failed server may have written its node file; the next starts afresh.
                    try? FileManager.default.removeItem(atPath: folder.path + "/nodes-\(index).conf")
                }
            }
        }
        let cluster = RedisCluster(servers: servers, folder: folder)
        let share = slotCount / masters
        for index in servers.indices {
            let last = index == masters - 1 ? slotCount - 1 : (index + 1) * share - 1
            try cluster.command(index, "CLUSTER", "ADDSLOTSRANGE", String(index * share), String(last))
            // Distinct epochs from the start, as `redis-cli --cluster create` sets them: left at 0,
            // the nodes settle their collision later, and a slot moved meanwhile may be claimed
            // back by a stale owner for a long while on a loaded machine.
            try cluster.command(index, "CLUSTER", "SET-CONFIG-EPOCH", String(index + 1))
        }
        for index in servers.indices.dropFirst() {
            try cluster.command(0, "CLUSTER", "MEET", "127.0.0.1", String(servers[index].port), String(busPorts[index]))
        }
        try await cluster.waitUntilFormed()
        return cluster
    }

    /// Returns once every node says `cluster_state:ok` and knows every other (after a start, or a
    /// node's restart).
    public func waitUntilFormed() async throws {
        // Gossip joins the nodes in a second or two: checked every 100 ms (each check starts a
        // redis-cli per node; more often would load the machine other tests share).
        await waitUntil(every: Self.checkInterval) { isFormed }
        guard isFormed else { throw Failure(description: "the cluster did not form within 30 s") }
    }

    /// How often the nodes are asked whether they have agreed.
    private static let checkInterval = Duration.milliseconds(100)

    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether every node sees the whole cluster, all slots served.
    ///
    /// `cluster_state:ok` alone does not say it: with `cluster-require-full-coverage no` a node is
    /// ok before gossip has told it the others' slots, and `cluster_known_nodes` counts nodes still
    /// in their handshake. A node killed then would come back from a configuration file that
    /// lacks them.
    private var isFormed: Bool {
        servers.indices.allSatisfy { index in
            guard let info = try? command(index, "CLUSTER", "INFO") else { return false }
            return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:\(servers.count)")
                && info.contains("cluster_slots_assigned:\(Self.slotCount)")
        }
    }

    /// Runs a command on node `index` with `redis-cli` and returns its printed reply.
    /// - Throws: when redis-cli is missing, fails, or prints an error reply.
    @discardableResult
    public func command(_ index: Int, _ arguments: String...) throws -> String {
        guard let cli = Self.cliExecutable else { throw Failure(description: "redis-cli is not installed") }
        let output = try ChildProcess.run(cli, ["-p", String(servers[index].port)] + arguments)
        let text = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard output.status == 0, !text.hasPrefix("ERR"), !text.hasPrefix("(error)") else {
            throw Failure(description: "redis-cli \(arguments.joined(separator: " ")) on node \(index): \(text) \(output.standardError)")
        }
        return text
    }

    /// The index of the node whose slots include `slot` (the equal runs `start` assigned).
    public func owner(ofSlot slot: Int) -> Int {
        min(slot / (Self.slotCount / servers.count), servers.count - 1)
    }

    /// The number of keys node `index` holds.
    public func keyCount(_ index: Int) throws -> Int {
        let text = try command(index, "DBSIZE")
        guard let count = Int(text) else { throw Failure(description: "DBSIZE printed \(text)") }
        return count
    }

    /// Starts moving `slot` from node `source` to node `target`: IMPORTING on the target,
    /// MIGRATING on the source, as `redis-cli --cluster reshard` does first.
    public func beginMigration(ofSlot slot: Int, from source: Int, to target: Int) throws {
        let sourceID = try command(source, "CLUSTER", "MYID"), targetID = try command(target, "CLUSTER", "MYID")
        try command(target, "CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID)
        try command(source, "CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID)
    }

    /// Moves `key`, in a slot being migrated, from node `source` to node `target`.
    public func migrate(_ key: String, from source: Int, to target: Int) throws {
        try command(source, "MIGRATE", "127.0.0.1", String(servers[target].port), key, "0", "5000")
    }

    /// Ends a migration: every node is told that `slot` belongs to node `target`, the target
    /// first (told first, the source would send clients to a target that still sends them back),
    /// and returns once every node's `CLUSTER NODES` says so (gossip may lag behind the commands
    /// on a loaded machine).
    public func finishMigration(ofSlot slot: Int, to target: Int) async throws {
        let targetID = try command(target, "CLUSTER", "MYID")
        for index in [target] + servers.indices.filter({ $0 != target }) {
            try command(index, "CLUSTER", "SETSLOT", String(slot), "NODE", targetID)
        }
        let agreed = { self.servers.indices.allSatisfy { (try? self.owner(ofSlot: slot, asSeenBy: $0)) == targetID } }
        await waitUntil(every: Self.checkInterval, agreed)
        guard agreed() else { throw Failure(description: "the nodes did not agree on slot \(slot) within 30 s") }
    }

    /// The ID of the node that serves `slot` in node `index`'s `CLUSTER NODES`: lines of
    /// `id address flags master ping pong epoch link slot-or-range…`.
    private func owner(ofSlot slot: Int, asSeenBy index: Int) throws -> String? {
        for line in try command(index, "CLUSTER", "NODES").split(separator: "\n") {
            let fields = line.split(separator: " ")
            let serves = fields.dropFirst(8).contains { field in
                let bounds = field.split(separator: "-").compactMap { Int($0) }
                return bounds.count == 1 ? bounds[0] == slot : bounds.count == 2 && (bounds[0]...bounds[1]).contains(slot)
            }
            if serves, let id = fields.first { return String(id) }
        }
        return nil
    }
}

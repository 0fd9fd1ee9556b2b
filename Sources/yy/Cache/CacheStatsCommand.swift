import ArgumentParser
import Foundation
import NIOCore
import YYCache
import YYCacheRedis

/// `yy cache stats`: count, size and the lifetime hit/miss/eviction counters; with `--redis`, the
/// Redis tier's counters summed over `yy cache` runs and each node's state.
struct CacheStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print the number of values, their total size and the hit, miss and eviction counters.",
        discussion: """
            With --redis it also prints the Redis tier's counters summed over the yy cache runs \
            that used it (hits, misses, errors, skipped writes, invalid values; kept in Redis), the \
            number of open circuits (nodes that did not answer), and each node's state.
            """
    )

    @OptionGroup var location: CacheLocation

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    /// What `--json` prints.
    struct Report: Codable {
        var path: String
        var count: Int
        var cost: Int
        var hits: Int
        var misses: Int
        var evictions: Int
        var redis: RedisReport?
    }

    /// The `redis` part of the report.
    struct RedisReport: Codable {
        var namespace: String
        var hits: Int
        var misses: Int
        var errors: Int
        var skippedWrites: Int
        var invalidValues: Int
        var openCircuits: Int
        var nodes: [NodeReport]
    }

    /// One Redis node: whether it answered `PING`, and the server's own keyspace counters.
    struct NodeReport: Codable {
        var node: String
        var reachable: Bool
        var error: String?
        var keyspaceHits: Int?
        var keyspaceMisses: Int?
    }

    func run() async throws {
        let cache = try location.open()
        var report = try ToolFailure.reporting {
            let counters = try cache.lifetimeStatistics
            return Report(
                path: cache.path, count: try cache.totalCount, cost: try cache.totalCost,
                hits: counters.hits, misses: counters.misses, evictions: counters.evictions)
        }
        if let tier = try location.openRedisTier() {
            report.redis = await redisReport(tier)
            await tier.client.close()
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try StandardStreams.writeStandardOutput(try encoder.encode(report) + Data("\n".utf8))
        } else {
            print(
                """
                path: \(report.path)
                count: \(report.count)
                cost: \(report.cost)
                hits: \(report.hits)
                misses: \(report.misses)
                evictions: \(report.evictions)
                """)
            if let redis = report.redis {
                print(
                    """
                    redis namespace: \(redis.namespace)
                    redis hits: \(redis.hits)
                    redis misses: \(redis.misses)
                    redis errors: \(redis.errors)
                    redis skipped writes: \(redis.skippedWrites)
                    redis invalid values: \(redis.invalidValues)
                    redis open circuits: \(redis.openCircuits)
                    """)
                for node in redis.nodes {
                    let state =
                        node.reachable
                        ? "up, keyspace hits \(node.keyspaceHits ?? 0), keyspace misses \(node.keyspaceMisses ?? 0)"
                        : "down (\(node.error ?? "no answer"))"
                    print("redis node \(node.node): \(state)")
                }
            }
        }
    }

    /// Pings every node, reads the servers' keyspace counters and the runs' summed counters.
    private func redisReport(_ tier: RedisCacheTier) async -> RedisReport {
        var nodes: [NodeReport] = []
        for (node, reply) in await tier.client.sendToEachNode(RedisCommand("INFO", ["stats"])) {
            switch reply {
            case .success(.bulkString(let text?)):
                let fields = Self.infoFields(String(buffer: text))
                nodes.append(
                    NodeReport(
                        node: node.description, reachable: true,
                        keyspaceHits: fields["keyspace_hits"].flatMap(Int.init),
                        keyspaceMisses: fields["keyspace_misses"].flatMap(Int.init)))
            case .success(let other):
                nodes.append(NodeReport(node: node.description, reachable: true, error: "INFO answered \(other)"))
            case .failure(let error):
                nodes.append(NodeReport(node: node.description, reachable: false, error: "\(error)"))
            }
        }
        let counters = (try? await RedisRunCounters.read(tier).get()) ?? [:]
        return RedisReport(
            namespace: tier.namespace, hits: counters["hits"] ?? 0, misses: counters["misses"] ?? 0,
            errors: counters["errors"] ?? 0, skippedWrites: counters["skipped_writes"] ?? 0,
            invalidValues: counters["invalid_values"] ?? 0,
            openCircuits: tier.statistics.openCircuits, nodes: nodes)
    }

    /// `name:value` lines of an `INFO` reply.
    private static func infoFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        return fields
    }
}

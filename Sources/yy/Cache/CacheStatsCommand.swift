import ArgumentParser
import Foundation
import YYCache

/// `yy cache stats`: count, size and the lifetime hit/miss/eviction counters.
struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print the number of values, their total size and the hit, miss and eviction counters."
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
    }

    func run() throws {
        let cache = try location.open()
        let report = try ToolFailure.reporting {
            let counters = try cache.lifetimeStatistics
            return Report(path: cache.path, count: try cache.totalCount, cost: try cache.totalCost,
                          hits: counters.hits, misses: counters.misses, evictions: counters.evictions)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            StandardStreams.writeStandardOutput(try encoder.encode(report) + Data("\n".utf8))
        } else {
            print("""
                path: \(report.path)
                count: \(report.count)
                cost: \(report.cost)
                hits: \(report.hits)
                misses: \(report.misses)
                evictions: \(report.evictions)
                """)
        }
    }
}

import Foundation
import YYDispatch

/// One contender's result in one benchmark: its fastest round and what that round did.
struct BenchRow: Encodable, Equatable {
    /// What was measured ("parse", "decode every frame", "memory set + get", …).
    var benchmark: String
    /// Who did it ("JSONDocument (YYModel)", "JSONSerialization (Foundation)", …).
    var contender: String
    /// The fastest round, in seconds.
    var roundSeconds: Double
    /// Operations in one round (files parsed, frames decoded, cache calls).
    var operations: Int
    /// Input bytes one round went through, when that is a measure of the work.
    var bytes: Int?
    /// `operations` over the fastest round.
    var operationsPerSecond: Double
    /// `bytes` over the fastest round, in millions of bytes a second.
    var megabytesPerSecond: Double?
    /// This row's throughput over the peer's in the same benchmark (the peer's own row: 1);
    /// `nil` where the benchmark has no peer.
    var againstPeer: Double?

    /// A row from a measured round. `roundTime` is at least a nanosecond, so that a round too
    /// short for the clock still gives a finite rate.
    init(benchmark: String, contender: String, roundTime: Duration, operations: Int, bytes: Int? = nil) {
        let seconds = max(roundTime.inSeconds, 1e-9)
        self.benchmark = benchmark
        self.contender = contender
        self.roundSeconds = seconds
        self.operations = operations
        self.bytes = bytes
        self.operationsPerSecond = Double(operations) / seconds
        self.megabytesPerSecond = bytes.map { Double($0) / 1e6 / seconds }
    }

    /// `ours`, each with its ratio to `peer` filled in, then `peer` (all did the same operations).
    static func compared(_ ours: [BenchRow], against peer: BenchRow) -> [BenchRow] {
        var peer = peer
        peer.againstPeer = 1
        return ours.map { row in
            var row = row
            row.againstPeer = row.operationsPerSecond / peer.operationsPerSecond
            return row
        } + [peer]
    }

    /// A Markdown table of `rows`.
    static func table(_ rows: [BenchRow]) -> String {
        var lines = [
            "| benchmark | contender | fastest round | operations/s | MB/s | against the peer |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for row in rows {
            let cells = [
                row.benchmark, row.contender, formatSeconds(row.roundSeconds), format(row.operationsPerSecond),
                row.megabytesPerSecond.map { format($0) } ?? "", row.againstPeer.map { format($0, digits: 2) + "x" } ?? "",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object per row, a line each.
    static func jsonLines(_ rows: [BenchRow]) throws(ToolFailure) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try ToolFailure.reporting {
            try rows.map { String(decoding: try encoder.encode($0), as: UTF8.self) + "\n" }.joined()
        }
    }

    /// `value` with three significant digits at least and no exponent ("12300", "45.6", "0.0123").
    private static func format(_ value: Double, digits: Int? = nil) -> String {
        let places = digits ?? (value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 4)
        return String(format: "%.\(places)f", value)
    }

    /// A round's time in the unit that suits it.
    private static func formatSeconds(_ seconds: Double) -> String {
        if seconds >= 1 { return format(seconds) + " s" }
        if seconds >= 1e-3 { return format(seconds * 1e3) + " ms" }
        return format(seconds * 1e6) + " µs"
    }
}

import ArgumentParser
import Foundation

/// `yy bench …`: how fast YYKit's parts are on this machine, on the caller's own input, against
/// what the same program would otherwise use in the same run.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure YYKit's parser, decoders and caches on your input, against Foundation's where it has one.",
        discussion: """
            Each contender runs whole rounds over the input until --seconds have passed (at least \
            \(BenchOptions.minimumRounds) rounds); the fastest round is reported, with the ratio of its \
            throughput to the peer's measured in the same run. Build with -c release for figures \
            that mean anything: a debug build says so on standard error. \
            Exit codes: 0 success, 1 invalid input (not JSON, not an image), 2 usage error or \
            unreadable file, 3 failure (a cache that cannot be written).
            """,
        subcommands: [BenchJSONCommand.self, BenchImageCommand.self, BenchCacheCommand.self]
    )
}

/// The options every `yy bench` subcommand takes.
struct BenchOptions: ParsableArguments {
    /// Rounds every contender runs, however short `--seconds` is: the fastest of one round would
    /// often be a cold one.
    static let minimumRounds = 3

    @Option(help: "How long each contender keeps running rounds, in seconds (it runs \(BenchOptions.minimumRounds) at least, however short this is).")
    var seconds = 1.0

    @Flag(
        help:
            "One JSON object per row instead of a table: benchmark, contender, roundSeconds, operations, bytes, operationsPerSecond, megabytesPerSecond, againstPeer."
    )
    var json = false

    func validate() throws {
        guard seconds >= 0, seconds.isFinite else { throw ValidationError("--seconds must be a finite number of 0 or more") }
    }

    /// A stopwatch with these options' time budget.
    var stopwatch: BenchStopwatch { BenchStopwatch(budget: .commandLineSeconds(seconds, atMost: 86_400), minimumRounds: Self.minimumRounds) }

    /// Prints `rows` as asked, after a warning on standard error when this is a debug build.
    func report(_ rows: [BenchRow]) throws(ToolFailure) {
        #if DEBUG
        StandardStreams.printError("yy: this is a debug build; build with `swift build -c release` for figures that mean anything")
        #endif
        try StandardStreams.writeStandardOutput(Data((json ? try BenchRow.jsonLines(rows) : BenchRow.table(rows)).utf8))
    }
}

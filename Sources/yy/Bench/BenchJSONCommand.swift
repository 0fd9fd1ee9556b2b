import ArgumentParser
import Foundation
import YYModelCore

/// `yy bench json FILE…`: YYModel's parser against Foundation's `JSONSerialization` on the
/// caller's files.
struct BenchJSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json",
        abstract: "Parse JSON files with JSONDocument and JSONValue, and with Foundation's JSONSerialization.",
        discussion: """
            A round parses every FILE once. JSONDocument validates the whole text and keeps a tape \
            that is read on demand; JSONValue builds the whole tree, as JSONSerialization does. \
            A file JSONSerialization refuses leaves the table without its row.
            """
    )

    @Argument(help: "The JSON files.")
    var files: [String]

    @OptionGroup var options: BenchOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one JSON file") }
    }

    func run() throws {
        // Every contender parses the same `Data`, as a program that read the files would hold them
        // (ours copy it into an array first, which is part of their time).
        var texts: [Data] = []
        for file in files {
            let text = Data(try JSONInput.read(file, atMost: JSONParsingOptions().maximumInputSize))
            do {
                _ = try JSONDocument(parsing: text)
            } catch {
                throw ToolFailure.notFound("\(file): invalid JSON at \(error)")
            }
            texts.append(text)
        }
        let bytes = texts.reduce(0) { $0 + $1.count }
        let stopwatch = options.stopwatch
        func row(_ contender: String, _ time: Duration) -> BenchRow {
            BenchRow(benchmark: "parse", contender: contender, roundTime: time, operations: texts.count, bytes: bytes)
        }
        // Each was checked above, so neither of ours throws here.
        let ours = [
            row("JSONDocument (YYModel)", stopwatch.fastestRound { for text in texts { keepResult(try? JSONDocument(parsing: text)) } }),
            row("JSONValue (YYModel)", stopwatch.fastestRound { for text in texts { keepResult(try? JSONValue(parsing: text)) } }),
        ]
        if let refused = zip(files, texts).first(where: { (try? JSONSerialization.jsonObject(with: $1, options: .fragmentsAllowed)) == nil }) {
            StandardStreams.printError("yy: JSONSerialization refuses \(refused.0): no peer row")
            try options.report(ours)
            return
        }
        let peer = row(
            "JSONSerialization (Foundation)",
            stopwatch.fastestRound {
                for text in texts { keepResult(try? JSONSerialization.jsonObject(with: text, options: .fragmentsAllowed)) }
            })
        try options.report(BenchRow.compared(ours, against: peer))
    }
}

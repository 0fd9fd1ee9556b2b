import ArgumentParser
import Foundation
import YYModelCore

/// `yy json format FILE [--pretty]`: the file re-written compact or indented, member order kept.
struct JSONFormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Write a JSON file compact (default) or indented, keeping its member order."
    )

    @OptionGroup var input: JSONInput

    @Flag(help: "Indent with two spaces, one member per line.")
    var pretty = false

    func run() throws {
        let bytes = try input.read()
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: bytes, options: input.parsingOptions())
        } catch {
            throw ToolFailure.notFound("\(input.file): invalid JSON at \(error)")
        }
        try StandardStreams.writeStandardOutput(Data(document.formatted(pretty: pretty) + [UInt8(ascii: "\n")]))
    }
}

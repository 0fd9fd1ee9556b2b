import ArgumentParser
import Foundation
import YYModelCore

/// `yy json …`: validate and format JSON files.
struct JSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json",
        abstract: "Validate and format JSON with YYModel's parser.",
        discussion:
            "FILE may be '-' for standard input. Exit codes: 0 success, 1 invalid JSON (position on standard error), 2 usage error or unreadable file.",
        subcommands: [JSONValidateCommand.self, JSONFormatCommand.self, JSONModelCommand.self]
    )
}

/// The input every `yy json` subcommand reads.
struct JSONInput: ParsableArguments {
    @Argument(help: "The JSON file, or '-' for standard input.")
    var file: String

    @Option(
        name: .customLong("max-size"),
        help: ArgumentHelp(
            "The largest input accepted, in bytes; reading stops just past it, so an endless input costs no more.",
            valueName: "BYTES"))
    var maximumSize = JSONParsingOptions().maximumInputSize

    func validate() throws {
        guard maximumSize >= 0 else { throw ValidationError("--max-size must be 0 or more") }
    }

    /// The parser's limits for this input: `--max-size`, and `maximumDepth` levels.
    func parsingOptions(maximumDepth: Int = JSONParsingOptions().maximumDepth) -> JSONParsingOptions {
        JSONParsingOptions(maximumDepth: maximumDepth, maximumInputSize: maximumSize)
    }

    /// The bytes of the file, at most one past `--max-size` (the parser then reports the input
    /// as too large); an unreadable file is reported like a usage error (exit 2).
    func read() throws(ToolFailure) -> [UInt8] {
        try Self.read(file, atMost: maximumSize)
    }

    /// The bytes of `file` (standard input for `-`), at most one past `limit`; an unreadable
    /// file is reported like a usage error (exit 2).
    static func read(_ file: String, atMost limit: Int) throws(ToolFailure) -> [UInt8] {
        do {
            return [UInt8](try StandardStreams.read(file, atMost: limit))
        } catch {
            throw .usage(error.message)
        }
    }
}

import ArgumentParser

/// `yy json …`: validate and format JSON files.
struct JSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json",
        abstract: "Validate and format JSON with YYModel's parser.",
        discussion: "FILE may be '-' for standard input. Exit codes: 0 success, 1 invalid JSON (position on standard error), 2 usage error or unreadable file.",
        subcommands: [JSONValidateCommand.self, JSONFormatCommand.self, JSONModelCommand.self]
    )
}

/// The input every `yy json` subcommand reads.
struct JSONInput: ParsableArguments {
    @Argument(help: "The JSON file, or '-' for standard input.")
    var file: String

    /// The bytes of the file; an unreadable file is reported like a usage error (exit 2).
    func read() throws(ToolFailure) -> [UInt8] {
        try Self.read(file)
    }

    /// The bytes of `file` (standard input for `-`); an unreadable file is reported like a usage
    /// error (exit 2).
    static func read(_ file: String) throws(ToolFailure) -> [UInt8] {
        if file == "-" { return [UInt8](StandardStreams.readStandardInput()) }
        do {
            return [UInt8](try StandardStreams.readFile(file))
        } catch {
            throw .usage(error.message)
        }
    }
}

import ArgumentParser
import YYCache

/// `yy cache get KEY`: writes the exact stored bytes to standard output.
struct CacheGetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Write the value's exact bytes to standard output; exit 1 when the key is missing."
    )

    @OptionGroup var location: CacheLocation

    @Argument(help: "The key.")
    var key: String

    func run() throws {
        let cache = try location.open()
        let data = try ToolFailure.reporting { try cache.data(forKey: key) }
        guard let data else { throw ToolFailure.notFound("no value for key '\(key)'") }
        StandardStreams.writeStandardOutput(data)
    }
}

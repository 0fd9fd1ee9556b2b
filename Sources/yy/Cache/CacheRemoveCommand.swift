import ArgumentParser
import YYCache

/// `yy cache remove KEY…`: removes values.
struct CacheRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the values of one or more keys (missing keys are not an error)."
    )

    @OptionGroup var location: CacheLocation

    @Argument(help: "The keys.")
    var keys: [String]

    func validate() throws {
        if keys.isEmpty { throw ValidationError("give at least one key") }
    }

    func run() throws {
        let cache = try location.open()
        try ToolFailure.reporting {
            for key in keys { try cache.removeValue(forKey: key) }
        }
    }
}

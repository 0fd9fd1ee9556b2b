import ArgumentParser
import YYCache

/// `yy cache remove KEY…`: removes values.
struct CacheRemoveCommand: AsyncParsableCommand {
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

    func run() async throws {
        let (cache, tier) = try location.openTiered()
        do {
            for key in keys { try await cache.removeValue(forKey: key) }
        } catch {
            throw ToolFailure.failure("\(error)")
        }
        try await location.finish(cache, tier: tier)
    }
}

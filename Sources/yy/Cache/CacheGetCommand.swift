import ArgumentParser
import Foundation
import YYCache

/// `yy cache get KEY`: writes the exact stored bytes to standard output. With `--redis`, a value
/// found only in Redis is also kept in the folder for the time it has left.
struct CacheGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Write the value's exact bytes to standard output; exit 1 when the key is missing."
    )

    @OptionGroup var location: CacheLocation

    @Argument(help: "The key.")
    var key: String

    func run() async throws {
        let (cache, tier) = try location.openTiered()
        let data: Data?
        do {
            data = try await cache.value(forKey: key)
        } catch {
            throw ToolFailure.failure("\(error)")
        }
        try await location.finish(cache, tier: tier)
        guard let data else { throw ToolFailure.notFound("no value for key '\(key)'") }
        try StandardStreams.writeStandardOutput(data)
    }
}

import ArgumentParser
import YYCache

/// `yy cache clear`: removes every value and waits until the files are deleted.
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove every value, with a progress bar while the files are deleted."
    )

    @OptionGroup var location: CacheLocation

    func run() async throws {
        let cache = try location.open()
        let bar = ProgressBar(title: "deleting")
        do {
            try await cache.removeAll { removed, total in bar.update(removed, of: total) }
        } catch {
            throw ToolFailure.failure("\(error)")
        }
        bar.finish()
    }
}

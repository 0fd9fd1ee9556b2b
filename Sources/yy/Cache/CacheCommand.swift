import ArgumentParser
import YYCache

/// `yy cache …`: a disk cache folder from the command line.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Store, read and manage values in a YYCache disk cache folder.",
        discussion: """
            Every subcommand takes --path DIR, the cache folder (created if missing). Several \
            processes may use one folder at once.
            Exit codes: 0 success, 1 key not found (get), 2 usage error, 3 failure.
            """,
        subcommands: [
            CacheSetCommand.self, CacheGetCommand.self, CacheRemoveCommand.self,
            CacheStatsCommand.self, CacheTrimCommand.self, CacheClearCommand.self,
        ]
    )
}

/// The option every cache subcommand shares.
struct CacheLocation: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The cache folder.", valueName: "DIR"))
    var path: String

    /// Opens the disk cache, reporting a failure with exit code 3.
    func open() throws(ToolFailure) -> DiskCache {
        do {
            return try DiskCache(path: path)
        } catch {
            throw .failure("cannot open the cache at '\(path)': \(error)")
        }
    }
}

import ArgumentParser
import YYCache

/// `yy cache …`: a disk cache folder from the command line.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Store, read and manage values in a YYCache disk cache folder.",
        discussion: """
            Every subcommand takes --path DIR, the cache folder (created if missing). Several \
            processes may use one folder at once. With --redis URL[,URL…], get, set and remove also \
            use Redis servers that other machines share (a server that is down makes them slower, \
            never fail); trim and clear act on the folder only.
            Exit codes: 0 success, 1 key not found (get), 2 usage error, 3 failure.
            """,
        subcommands: [
            CacheSetCommand.self, CacheGetCommand.self, CacheRemoveCommand.self,
            CacheStatsCommand.self, CacheTrimCommand.self, CacheClearCommand.self,
        ]
    )
}

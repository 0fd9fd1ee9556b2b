import ArgumentParser
import YYCache

/// `yy cache trim`: evicts least recently used values down to the given bounds.
struct CacheTrimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trim",
        abstract: "Evict least recently used values down to the given bounds; always drops expired values."
    )

    @OptionGroup var location: CacheLocation

    @Option(help: ArgumentHelp("Keep at most this many values.", valueName: "N"))
    var count: Int?

    @Option(help: ArgumentHelp("Keep at most this many bytes.", valueName: "BYTES"))
    var cost: Int?

    @Option(help: ArgumentHelp("Drop values not used for this many seconds.", valueName: "SECONDS"))
    var age: Double?

    @Option(name: .customLong("free-space"), help: ArgumentHelp("Evict until the file system has this many bytes free.", valueName: "BYTES"))
    var freeSpace: Int?

    func validate() throws {
        for (name, value) in [("--count", count), ("--cost", cost), ("--free-space", freeSpace)] {
            if let value, value < 0 { throw ValidationError("\(name) must not be negative") }
        }
        if let age, !(age >= 0) { throw ValidationError("--age must be a number of seconds, 0 or more, not \(age)") }
    }

    func run() throws {
        let cache = try location.open()
        try ToolFailure.reporting {
            try cache.removeExpiredValues()
            if let count { try cache.trim(toCount: count) }
            if let cost { try cache.trim(toCost: cost) }
            if let age { try cache.trim(toAge: .commandLineSeconds(age, atMost: 1e12)) }  // 1e12 s: older than anything
            if let freeSpace { try cache.trim(toFreeDiskSpace: freeSpace) }
            print("count: \(try cache.totalCount)\ncost: \(try cache.totalCost)")
        }
    }
}

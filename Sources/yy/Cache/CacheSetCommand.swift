import ArgumentParser
import Foundation
import YYCache

/// `yy cache set KEY [FILE]`: stores a file's bytes, or standard input, under a key.
struct CacheSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store a value: the bytes of FILE, or of standard input when FILE is omitted."
    )

    @OptionGroup var location: CacheLocation

    @Argument(help: "The key (any text).")
    var key: String

    @Argument(help: "The file to store; standard input when omitted or '-'.")
    var file: String?

    @Option(
        name: .customLong("max-size"),
        help: ArgumentHelp(
            "The largest value accepted, in bytes (default 1 GiB); reading stops just past it, so an endless input costs no more.",
            valueName: "BYTES"))
    var maximumSize = 1 << 30

    @Option(name: .long, help: ArgumentHelp("Expire the value after this many seconds.", valueName: "SECONDS"))
    var ttl: Double?

    func validate() throws {
        if let ttl, !(ttl > 0) { throw ValidationError("--ttl must be a positive number of seconds") }
        guard maximumSize >= 0 else { throw ValidationError("--max-size must be 0 or more") }
    }

    func run() async throws {
        let data = try StandardStreams.read(file ?? "-", atMost: maximumSize)
        guard data.count <= maximumSize else {
            throw ToolFailure.failure(
                "\(file.map { "'\($0)'" } ?? "standard input") is larger than --max-size (\(maximumSize) bytes); nothing stored")
        }
        // Up to a trillion seconds (30,000 years): `--ttl 1e300` or `inf` mean forever, and
        // forever is as long as the cache keeps anything.
        let expiresAfter = ttl.map { Duration.commandLineSeconds($0, atMost: 1e12) }
        let (cache, tier) = try location.openTiered()
        do {
            try await cache.setValue(data, forKey: key, expiresAfter: expiresAfter)
        } catch {
            throw ToolFailure.failure("\(error)")
        }
        try await location.finish(cache, tier: tier)
    }
}

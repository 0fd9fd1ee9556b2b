import ArgumentParser
import Foundation

/// The `yy` command: YYKit's tools from the command line.
///
/// Exit codes: 0 success, 1 "not found" answers (such as `yy cache get` of a missing key),
/// 2 usage errors, 3 failures (I/O, a damaged file, a cache error).
@main
struct YY: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "yy",
        abstract: "YYKit for Swift: cache, model, image, fetch and benchmark tools.",
        subcommands: [CacheCommand.self, JSONCommand.self, ImageCommand.self, FetchCommand.self, ServeCommand.self, BenchCommand.self]
    )

    /// Parses and runs, mapping errors to the documented exit codes.
    static func main() async {
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "serve" {
                arguments = ["serve"] + ServeEnvironment.arguments(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
            }
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            // Output that `print` buffered and could not write (a full disk) fails the command.
            try StandardStreams.finishStandardOutput()
        } catch let failure as ToolFailure {
            StandardStreams.printError("yy: \(failure.message)")
            Foundation.exit(failure.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)  // --help, --version: print and exit 0
            }
            // A bare exit code (a fetch that failed, its reason already printed) has no message.
            let message = fullMessage(for: error)
            if !message.isEmpty { StandardStreams.printError(message) }
            // ArgumentParser uses 64 for usage errors; this tool documents 2.
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

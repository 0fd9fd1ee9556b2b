import ArgumentParser
import YYModelCore

/// `yy json validate FILE`: exit 0 when the file is valid JSON, 1 with the position when not.
struct JSONValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check that a file is valid JSON (RFC 8259); print where it is not."
    )

    @OptionGroup var input: JSONInput

    @Option(help: "The deepest nesting accepted (validation does not recurse: any limit is safe).")
    var maxDepth = JSONParsingOptions().maximumDepth

    func run() throws {
        let bytes = try input.read()
        do {
            _ = try JSONDocument(parsing: bytes, options: input.parsingOptions(maximumDepth: maxDepth))
        } catch {
            throw ToolFailure.notFound("\(input.file): invalid JSON at \(error)")
        }
    }
}

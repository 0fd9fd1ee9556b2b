import ArgumentParser
import Foundation
import YYModelCodegen
import YYModelCore

/// `yy json model FILE --name TypeName`: `@Model` source that fits a JSON sample.
struct JSONModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Print Swift @Model types that fit a JSON sample (an object, or an array of objects)."
    )

    @OptionGroup var input: JSONInput

    @Option(help: "The name of the root type.")
    var name: String

    func validate() throws {
        guard let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw ValidationError("--name must be a Swift type name")
        }
    }

    func run() throws {
        let bytes = try input.read()
        let sample: JSONValue
        do {
            sample = try JSONDocument(parsing: bytes, options: input.parsingOptions()).value
        } catch {
            throw ToolFailure.notFound("\(input.file): invalid JSON at \(error)")
        }
        do {
            try StandardStreams.writeStandardOutput(Data(try ModelSourceGenerator().source(for: sample, typeName: name).utf8))
        } catch {
            throw ToolFailure.notFound("\(input.file): \(error)")
        }
    }
}

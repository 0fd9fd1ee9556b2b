import ArgumentParser
import Foundation
import YYImage

/// `yy image …`: inspect, convert and unpack images.
struct ImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Inspect, convert and unpack PNG/APNG, GIF, JPEG, WebP, BMP and ICO images.",
        discussion: "Exit codes: 0 success, 1 the input is not a decodable image, 2 usage error or unreadable file, 3 failure while encoding or writing.",
        subcommands: [ImageInfoCommand.self, ImageConvertCommand.self, ImageFramesCommand.self, ImagePlayCommand.self]
    )
}

/// The input image every `yy image` subcommand reads.
struct ImageInput: ParsableArguments {
    @Argument(help: "The image file.")
    var file: String

    /// A decoder over the whole file: unreadable files exit 2, undecodable ones exit 1.
    func decoder() throws(ToolFailure) -> ImageDecoder {
        let data = try Self.read(file)
        do {
            return try ImageDecoder(data: data)
        } catch {
            throw .notFound("\(file): \(error)")
        }
    }
}

extension ImageInput {
    /// The bytes of `file`; an unreadable file is reported like a usage error (exit 2).
    static func read(_ file: String) throws(ToolFailure) -> Data {
        do {
            return try StandardStreams.readFile(file)
        } catch {
            throw .usage(error.message)
        }
    }
}

extension ImageDecoder {
    /// Frame `index`, turning a decoding error into exit code 1.
    func frameForTool(_ index: Int, file: String) throws(ToolFailure) -> Bitmap {
        do {
            return try frame(at: index)
        } catch {
            throw .notFound("\(file): frame \(index): \(error)")
        }
    }
}

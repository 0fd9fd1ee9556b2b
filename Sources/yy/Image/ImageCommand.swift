import ArgumentParser
import Foundation
import YYImage

/// `yy image …`: inspect, convert and unpack images.
struct ImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Inspect, convert and unpack images: \(ImageType.commandLineList).",
        discussion: """
            Types (read / write): \(ImageType.allCases.map(\.commandLineSummary).joined(separator: ", ")).

            Exit codes: 0 success, 1 the input is not a decodable image, 2 usage error or unreadable file, 3 failure while encoding or writing.
            """,
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

extension ImageType {
    /// The types this build reads, by their usual names.
    static var commandLineList: String {
        allCases.filter(\.isDecodable).map(\.commandLineName).joined(separator: ", ")
    }

    /// The name the help uses (`PNG/APNG`, `JPEG 2000`...).
    var commandLineName: String {
        switch self {
        case .jpeg: "JPEG"
        case .jpeg2000: "JPEG 2000"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        case .ico: "ICO"
        case .icns: "ICNS"
        case .gif: "GIF"
        case .png: "PNG/APNG"
        case .webp: "WebP"
        case .avif: "AVIF"
        case .heic: "HEIC"
        case .jpegXL: "JPEG XL"
        case .svg: "SVG"
        }
    }

    /// The name, its file extension and whether this build reads and writes it.
    var commandLineSummary: String {
        let access = isEncodable ? "read/write" : isDecodable ? "read only" : "not in this build"
        return "\(commandLineName) (.\(fileExtension), \(access))"
    }
}

extension ImageDecoder {
    /// Page `index` of a multi-page file, turning a decoding error into exit code 1.
    func pageForTool(_ index: Int, file: String) throws(ToolFailure) -> Bitmap {
        do {
            return try page(at: index)
        } catch {
            throw .notFound("\(file): page \(index): \(error)")
        }
    }

    /// Frame `index`, turning a decoding error into exit code 1.
    func frameForTool(_ index: Int, file: String) throws(ToolFailure) -> Bitmap {
        do {
            return try frame(at: index)
        } catch {
            throw .notFound("\(file): frame \(index): \(error)")
        }
    }
}

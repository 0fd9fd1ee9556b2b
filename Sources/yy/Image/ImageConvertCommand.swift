import ArgumentParser
import Foundation
import YYImage

/// `yy image convert IN OUT [--type --quality --lossless --loop]`: re-encode every frame.
struct ImageConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image or animation to another type.",
        discussion: """
            The output type comes from --type or OUT's extension (png/apng, gif, jpg, webp, bmp, ico). Animations keep \
            their frames, durations and loop count; JPEG and BMP take the first frame; ICO stores each frame as an icon.
            """
    )

    @Argument(help: "The input image.")
    var input: String

    @Argument(help: "The output file.")
    var output: String

    @Option(help: "Output type: png, apng, gif, jpg, webp, bmp or ico (default: from OUT's extension).")
    var type: String?

    @Option(help: "Quality 0...1 for JPEG and lossy WebP (defaults: 0.9 JPEG, 0.8 WebP).")
    var quality: Double?

    @Flag(help: "Lossless WebP.")
    var lossless = false

    @Option(help: "Plays of the animation, 0 = forever (default: the input's).")
    var loop: Int?

    func validate() throws {
        if let quality, !(0...1).contains(quality) { throw ValidationError("--quality must be between 0 and 1") }
        if let loop, loop < 0 { throw ValidationError("--loop must be 0 or more") }
        _ = try outputType()
    }

    private func outputType() throws -> ImageType {
        let name = type ?? URL(fileURLWithPath: output).pathExtension
        guard let type = ImageType(fileExtension: name) else {
            throw ValidationError("unknown output type '\(name)': use --type png, apng, gif, jpg, webp, bmp or ico")
        }
        guard type.isEncodable else { throw ValidationError("\(type.rawValue) cannot be written") }
        return type
    }

    func run() throws {
        let decoder = try ImageInput(file: input).decoder()
        var encoder = ImageEncoder(type: try outputType())
        if let quality { encoder.quality = quality }
        encoder.lossless = lossless
        encoder.loopCount = loop ?? decoder.loopCount
        for index in 0..<decoder.frameCount {
            let frame = try decoder.frameForTool(index, file: input)
            encoder.addFrame(frame, duration: decoder.frameInfos[index].duration)
        }
        do {
            try encoder.encode(to: URL(fileURLWithPath: output))
        } catch {
            throw ToolFailure.failure(ToolFailure.message(about: output, error))
        }
    }
}

extension ImageInput {
    init(file: String) {
        self.init()
        self.file = file
    }
}

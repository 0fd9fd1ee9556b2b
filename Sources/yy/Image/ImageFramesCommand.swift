import ArgumentParser
import Foundation
import YYImage

/// `yy image frames IN OUTDIR`: every composited frame (or every page of a TIFF or ICNS file) as
/// frame-0000.png, frame-0001.png, ...
struct ImageFramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Write every frame, composited at canvas size, as OUTDIR/frame-0000.png, frame-0001.png, ... (RGBA, straight alpha).",
        discussion:
            "OUTDIR is created when missing. A multi-page file (TIFF pages, ICNS icon sizes, largest first) writes each page, at its own size."
    )

    @OptionGroup var input: ImageInput

    @Argument(help: "The folder to write the frames to.")
    var outputDirectory: String

    func run() throws {
        let decoder = try input.decoder()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: outputDirectory, isDirectory: &isFolder), !isFolder.boolValue {
            throw ToolFailure.failure("\(outputDirectory): exists and is not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw ToolFailure.failure("\(outputDirectory): \(error.localizedDescription)")
        }
        // A still with several pages writes its pages; an animation its frames.
        let usesPages = decoder.frameCount == 1 && decoder.pageCount > 1
        let count = usesPages ? decoder.pageCount : decoder.frameCount
        let progress = count > 20 ? ProgressBar(title: usesPages ? "pages" : "frames") : nil
        for index in 0..<count {
            let frame = usesPages ? try decoder.pageForTool(index, file: input.file) : try decoder.frameForTool(index, file: input.file)
            let name = String(format: "frame-%04d.png", index)
            do {
                var encoder = ImageEncoder(type: .png)
                encoder.alwaysWritesAlpha = true
                encoder.addFrame(frame)
                try encoder.encode(to: URL(fileURLWithPath: outputDirectory).appendingPathComponent(name))
            } catch {
                throw ToolFailure.failure(ToolFailure.message(about: "\(outputDirectory)/\(name)", error))
            }
            progress?.update(index + 1, of: count)
        }
        progress?.finish()
    }
}

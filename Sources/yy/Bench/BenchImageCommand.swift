import ArgumentParser
import Foundation
import YYImage

/// `yy bench image FILE…`: how fast YYImage decodes the caller's images, every frame.
struct BenchImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Decode images, every frame composited at canvas size, and the first frame alone.",
        discussion: """
            A round decodes every FILE from its bytes (any type `yy image` reads); MB/s \
            counts the files' bytes. \
            There is no peer in the same process on every platform, so these rows have no ratio; \
            Benchmarks/ in the source tree measures the codecs against libpng, giflib, \
            libjpeg-turbo, libwebp and Pillow.
            """
    )

    @Argument(help: "The image files.")
    var files: [String]

    @OptionGroup var options: BenchOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file") }
    }

    func run() throws {
        var images: [Data] = []
        var frames = 0
        for file in files {
            let data = try ImageInput.read(file)
            do {
                frames += try Self.decodeEveryFrame(data)
            } catch {
                throw ToolFailure.notFound("\(file): \(error)")
            }
            images.append(data)
        }
        let bytes = images.reduce(0) { $0 + $1.count }
        let stopwatch = options.stopwatch
        // Each was decoded above, so neither round throws here.
        let everyFrame = stopwatch.fastestRound { for data in images { keepResult(try? Self.decodeEveryFrame(data)) } }
        let firstFrame = stopwatch.fastestRound {
            for data in images { keepResult(try? ImageDecoder(data: data).frame(at: 0)) }
        }
        try options.report([
            BenchRow(benchmark: "decode every frame", contender: "ImageDecoder (YYImage)", roundTime: everyFrame, operations: frames, bytes: bytes),
            BenchRow(benchmark: "decode the first frame", contender: "ImageDecoder (YYImage)", roundTime: firstFrame, operations: images.count),
        ])
    }

    /// Decodes every frame of `data`; returns how many there were.
    private static func decodeEveryFrame(_ data: Data) throws(ImageError) -> Int {
        let decoder = try ImageDecoder(data: data)
        for index in 0..<decoder.frameCount { keepResult(try decoder.frame(at: index)) }
        return decoder.frameCount
    }
}

import ArgumentParser
import Foundation
import YYImage

/// `yy image info FILE [--json]`: type, canvas size, frame and loop counts, per-frame timing.
struct ImageInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print an image's type, canvas size, frame count, loop count and frame durations.",
        discussion: "Loop count is the number of plays, 0 = forever (a GIF storing N repeats plays N + 1 times). Durations are as stored, in seconds."
    )

    @OptionGroup var input: ImageInput

    @Flag(
        help:
            "Print JSON: type, width, height, frameCount, loopCount, orientation, pageCount, bitDepth, frames[{x, y, width, height, duration, disposal, blend}]."
    )
    var json = false

    /// What `--json` prints.
    struct Report: Encodable {
        var type: String
        var width: Int
        var height: Int
        var frameCount: Int
        var loopCount: Int
        var orientation: Int
        var pageCount: Int
        /// Bits per colour sample as stored.
        var bitDepth: Int
        var frames: [ImageFrameInfo]
    }

    func run() throws {
        let decoder = try input.decoder()
        let report = Report(
            type: decoder.type?.rawValue ?? "unknown", width: decoder.canvasWidth, height: decoder.canvasHeight,
            frameCount: decoder.frameCount, loopCount: decoder.loopCount, orientation: decoder.orientation.rawValue,
            pageCount: decoder.pageCount, bitDepth: decoder.bitDepth, frames: decoder.frameInfos)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try ToolFailure.reporting { try encoder.encode(report) }
            try StandardStreams.writeStandardOutput(data + Data("\n".utf8))
            return
        }
        var lines = [
            "type: \(report.type)",
            "size: \(report.width)x\(report.height)",
            "frames: \(report.frameCount)",
            "loop: \(report.loopCount == 0 ? "forever" : "\(report.loopCount) play\(report.loopCount == 1 ? "" : "s")")",
        ]
        if report.orientation != 1 { lines.append("orientation: \(report.orientation)") }
        if report.pageCount > 1 { lines.append("pages: \(report.pageCount)") }
        if report.bitDepth != 8 { lines.append("bit depth: \(report.bitDepth)") }
        if report.frameCount > 1 {
            let durations = report.frames.map { String(format: "%g", $0.duration) }
            lines.append("durations: \(durations.joined(separator: " "))")
        }
        try StandardStreams.writeStandardOutput(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

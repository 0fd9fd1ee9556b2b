import ArgumentParser
import Dispatch
import Foundation
import YYImage
import YYTerminal
import YYWebImage

/// `yy image play FILE`: plays an image in the terminal until its loops end or Ctrl-C.
struct ImagePlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an image in the terminal until its loops end or Ctrl-C.",
        discussion: """
            In a terminal it uses the kitty graphics protocol, iTerm2 inline images or sixel when the terminal \
            has them (inside tmux: blocks), else Unicode half blocks in 24-bit colour (256 colours when COLORTERM \
            does not say truecolor or 24bit). When standard output is not a terminal it prints the first frame \
            once as blocks, or with --loops N writes N loops of frames as text.
            Exit codes: 0 played (Ctrl-C and SIGTERM end playback normally), 1 unreadable, unreachable or undecodable \
            image, 2 usage.
            """
    )

    /// The `--protocol` choices.
    enum ProtocolChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, kitty, iterm, sixel, blocks
    }

    @Argument(help: "The image file, or an http(s) URL (fetched through the YYWebImage pipeline).")
    var file: String

    @Option(help: "Plays of the animation; 0 = forever (default: the file's loop count).")
    var loops: Int?

    @Option(help: "Playback speed: 2 plays twice as fast; speeds beyond 1/64...64 play at the nearer bound.")
    var speed: Double = 1

    @Option(help: "Width in terminal columns (default: fit the terminal, keeping the aspect ratio).")
    var width: Int?

    @Option(name: .customLong("protocol"), help: "How to draw: auto, kitty, iterm, sixel or blocks.")
    var graphicsProtocol: ProtocolChoice = .auto

    @Flag(help: "At the end, print frames shown, late frames, decodes, peak buffer bytes and CPU time to standard error.")
    var stats = false

    func validate() throws {
        if let loops, loops < 0 { throw ValidationError("--loops must be 0 (forever) or more, not \(loops)") }
        if !(speed.isFinite && speed > 0) { throw ValidationError("--speed must be a positive number, not \(speed)") }
        if let width, width < 1 { throw ValidationError("--width must be at least 1, not \(width)") }
    }

    func run() async throws {
        let image: Image
        do {
            if let url = URL(string: file), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
                image = try await ImagePipeline(configuration: .init()).image(for: url).image
            } else {
                image = try Image(contentsOfFile: file)
            }
        } catch {
            throw ToolFailure.notFound(ToolFailure.message(about: file, error))  // unreadable, unreachable or undecodable: exit 1
        }
        if TerminalSession.outputIsTerminal {
            try await TerminalPlayback(image: image, options: self).run()
        } else {
            try TextPlayback(image: image, options: self).run()
        }
    }
}

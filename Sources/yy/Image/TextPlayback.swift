import Foundation
import YYImage
import YYTerminal

/// `yy image play` when standard output is not a terminal: the first frame once as half blocks,
/// or with `--loops N` every frame of N loops, each after a cursor-up over the one before, so that
/// the text replays as the animation in a terminal.
struct TextPlayback {
    let image: Image
    let options: ImagePlayCommand

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let columns = options.width ?? environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
        let fit = TerminalImageFit.fit(
            width: image.pixelWidth, height: image.pixelHeight, protocol: .blocks,
            requestedColumns: options.width, terminalColumns: columns, terminalRows: Int.max / 4)
        let renderer = HalfBlockRenderer(colorMode: TerminalColorMode.detect(environment: environment))
        var statistics = PlaybackStatistics()
        func lines(_ index: Int) throws(ToolFailure) -> [UInt8] {
            let contents: FrameContents
            switch Result(catching: { () throws(ImageError) -> FrameContents in try image.contents(at: index) }) {
            case .success(let decoded): contents = decoded
            case .failure(let error): throw .notFound("\(options.file): frame \(index): \(error)")
            }
            statistics.decodes += 1
            return renderer.lines(for: contents.visibleBitmap().resized(width: fit.pixelWidth, height: fit.pixelHeight))
        }
        guard let loops = options.loops else {
            try StandardStreams.writeStandardOutput(Data(try lines(0)))
            statistics.framesShown = 1
            if options.stats { statistics.print() }
            return
        }
        guard loops > 0 else {
            throw ToolFailure.usage("--loops 0 plays forever; give a number of loops when output is not a terminal")
        }
        // Rendered frames are kept while they take less than 64 MB, so each is decoded once.
        var rendered: [Int: [UInt8]] = [:]
        var renderedBytes = 0
        for loop in 0..<loops {
            for index in 0..<image.frameCount {
                let text: [UInt8]
                if let kept = rendered[index] {
                    text = kept
                } else {
                    text = try lines(index)
                    if renderedBytes + text.count <= 64 << 20 {
                        rendered[index] = text
                        renderedBytes += text.count
                    }
                }
                let moveUp = loop == 0 && index == 0 ? [] : Array("\u{1B}[\(fit.rows)A".utf8)
                try StandardStreams.writeStandardOutput(Data(moveUp + text))
                statistics.framesShown += 1
            }
        }
        if options.stats { statistics.print() }
    }
}

import Dispatch
import Foundation
import YYDispatch
import YYImage
import YYTerminal

/// `yy image play` on a terminal: a player on the real clock (frames whose time has passed are
/// skipped), drawn by the renderer of the chosen protocol, until the loops end, Ctrl-C or SIGTERM.
/// The terminal is put back however playback ends; a resize re-fits the next frame.
struct TerminalPlayback {
    let image: Image
    let options: ImagePlayCommand

    /// What the drawing loop is woken with. Its buffer keeps only the newest few, so that a slow
    /// terminal skips frames; events that must not be skipped are kept in ``Pending`` instead.
    private enum Input: Sendable {
        case frame(index: Int, contents: FrameContents)
        /// Something was set in ``Pending``.
        case event
    }

    /// What happened since the drawing loop last looked.
    private struct Pending {
        var stop = false
        var resize = false
        var finished = false
    }

    func run() async throws {
        let session = TerminalSession()
        let environment = ProcessInfo.processInfo.environment
        let graphics = chooseProtocol(session: session, environment: environment)
        var renderer: any TerminalImageRenderer =
            switch graphics {
            case .kitty: KittyRenderer()
            case .iterm: ITermRenderer()
            case .sixel: SixelRenderer()
            case .blocks: HalfBlockRenderer(colorMode: TerminalColorMode.detect(environment: environment))
            }
        var fit = self.fit(graphics, session.size())

        let player = AnimatedImagePlayer(image: image, latenessPolicy: .skip)
        player.loopCountOverride = options.loops
        player.rate = options.speed

        let (inputs, feed) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .bufferingNewest(4))
        // Signals (their default actions off while we play) and the end of playback are flags,
        // then a wake-up: newer frames may push a wake-up out of the small buffer, never a flag,
        // and the newest input is always delivered, so the loop always sees the last flag set.
        let pending = Locked(Pending())
        let signals = SignalPipe(signals: [SIGINT, SIGTERM, SIGWINCH], queue: .global(qos: .userInteractive)) { number in
            pending.withLock { if number == SIGWINCH { $0.resize = true } else { $0.stop = true } }
            feed.yield(.event)
        }
        // Frame changes go straight from the player's timer thread into the drawing loop's input.
        player.addObserver { event in
            switch event {
            case .frame(let change): feed.yield(.frame(index: change.index, contents: change.contents))
            case .finished:
                pending.withLock { $0.finished = true }
                feed.yield(.event)
            }
        }
        defer { signals?.cancel() }

        session.begin(reservingRows: fit.rows)
        var scaled = ScaledFrames(capacityBytes: 64 << 20)
        player.play()
        drawing: for await input in inputs {
            let events = pending.withLock { pending in
                defer { pending.resize = false }
                return pending
            }
            if events.stop { break drawing }
            if events.resize {
                let refit = self.fit(graphics, session.size())
                if refit != fit {
                    session.clearPicture()
                    session.write(renderer.finish())
                    renderer.reset()
                    scaled = ScaledFrames(capacityBytes: 64 << 20)
                    fit = refit
                    session.reserve(rows: fit.rows)
                }
            }
            switch input {
            case .frame(let index, let contents):
                let bitmap = scaled.frame(index, of: contents, fit: fit)
                session.write(renderer.draw(bitmap, columns: fit.columns, rows: fit.rows))
            case .event:
                // Only wake-ups follow the end, so the frames before it are drawn first.
                if events.finished { break drawing }
            }
        }
        player.stop()
        session.write(renderer.finish())
        session.end(pictureRows: fit.rows)
        if options.stats {
            let counters = player.statistics
            PlaybackStatistics(
                framesShown: counters.framesShown, lateFrames: counters.lateFrames,
                decodes: counters.buffer.decodes, peakBufferBytes: counters.buffer.peakBytes
            ).print()
        }
    }

    /// `--protocol`, or what the terminal says it can do when it is `auto` (asked with a 300 ms
    /// limit, and not at all inside tmux or iTerm2, which the environment tells).
    private func chooseProtocol(session: TerminalSession, environment: [String: String]) -> TerminalGraphicsProtocol {
        switch options.graphicsProtocol {
        case .kitty: return .kitty
        case .iterm: return .iterm
        case .sixel: return .sixel
        case .blocks: return .blocks
        case .auto:
            let known = TerminalGraphicsProtocol.detect(environment: environment, reply: nil)
            if known != .blocks || environment["TMUX"] != nil { return known }
            let reply = session.ask(
                TerminalGraphicsProtocol.query, timeout: .milliseconds(300),
                isComplete: TerminalGraphicsProtocol.isCompleteReply)
            return TerminalGraphicsProtocol.detect(environment: environment, reply: reply)
        }
    }

    /// The picture's size in a terminal of `size`, one row left for the prompt.
    private func fit(_ graphics: TerminalGraphicsProtocol, _ size: TerminalSession.Size) -> TerminalImageFit {
        TerminalImageFit.fit(
            width: image.pixelWidth, height: image.pixelHeight, protocol: graphics,
            requestedColumns: options.width, terminalColumns: size.columns,
            terminalRows: max(1, size.rows - 1), cellPixels: size.cellPixels)
    }
}

/// Frames scaled to the terminal, kept while they fit in a byte budget so that each is scaled once.
struct ScaledFrames {
    let capacityBytes: Int
    private var frames: [Int: Bitmap] = [:]
    private var bytes = 0

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    mutating func frame(_ index: Int, of contents: FrameContents, fit: TerminalImageFit) -> Bitmap {
        if let kept = frames[index] { return kept }
        let bitmap = contents.visibleBitmap().resized(width: fit.pixelWidth, height: fit.pixelHeight)
        if bytes + bitmap.byteCount <= capacityBytes {
            frames[index] = bitmap
            bytes += bitmap.byteCount
        }
        return bitmap
    }
}

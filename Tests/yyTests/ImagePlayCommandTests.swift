import Foundation
import TestSupport
import Testing
import YYImage

/// `yy image play` as scripts and people use it: output when not a terminal, exit codes, and a
/// real terminal (tmux) showing the animation and restored after Ctrl-C or SIGTERM.
@Suite struct ImagePlayCommandTests {
    let folder = TemporaryDirectory("play")

    func animation(_ colors: [RGBA]) throws -> String {
        try Self.writeAnimation(colors, in: folder)
    }

    /// An 8 × 8 GIF of solid frames, 300 ms each, looping forever, written into `folder`.
    static func writeAnimation(_ colors: [RGBA], in folder: TemporaryDirectory) throws -> String {
        var encoder = ImageEncoder(type: .gif)
        encoder.loopCount = 0
        for color in colors {
            var frame = Bitmap(width: 8, height: 8)
            for y in 0..<8 { for x in 0..<8 { frame[x, y] = color } }
            encoder.addFrame(frame, duration: 0.3)
        }
        let path = folder.appending("animation.gif")
        try encoder.encode().write(to: URL(fileURLWithPath: path))
        return path
    }

    static let red = RGBA(255, 0, 0, 255), blue = RGBA(0, 0, 255, 255), green = RGBA(0, 255, 0, 255)

    func yy(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Output {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        return try ChildProcess(binary, arguments, environment: environment).wait()
    }

    @Test func withoutATerminalItPrintsTheFirstFrameOnceAsBlocks() throws {
        let file = try animation([Self.red, Self.blue])
        let result = try yy(["image", "play", file, "--width", "2"], environment: ["COLORTERM": "truecolor"])
        #expect(result.status == 0)
        // 8 × 8 at two columns: 2 × 2 pixels, one text row.
        #expect(result.text == "\u{1B}[0;38;2;255;0;0;48;2;255;0;0m▀▀\u{1B}[0m\n")
        let palette = try yy(["image", "play", file, "--width", "2"])
        #expect(palette.text == "\u{1B}[0;38;5;196;48;5;196m▀▀\u{1B}[0m\n")
    }

    @Test func withoutATerminalLoopsWritesEveryFrameOfEachLoopForRecording() throws {
        let file = try animation([Self.red, Self.blue])
        let result = try yy(["image", "play", file, "--width", "2", "--loops", "2", "--stats"], environment: ["COLORTERM": "truecolor"])
        #expect(result.status == 0)
        let red = "\u{1B}[0;38;2;255;0;0;48;2;255;0;0m▀▀\u{1B}[0m\n", blue = "\u{1B}[0;38;2;0;0;255;48;2;0;0;255m▀▀\u{1B}[0m\n"
        let up = "\u{1B}[1A"
        #expect(result.text == red + up + blue + up + red + up + blue)
        #expect(result.standardError.contains("frames shown: 4\n"))
        #expect(result.standardError.contains("decodes: 2\n"))  // each frame decoded once
    }

    @Test func exitCodesForBadFilesAndUsage() throws {
        let missingFile = folder.appending("missing.gif")
        let missing = try yy(["image", "play", missingFile])
        #expect(missing.status == 1)
        #expect(missing.standardError == "yy: \(missingFile): cannot read: No such file or directory\n")
        let text = folder.appending("text.gif")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: text))
        let undecodable = try yy(["image", "play", text])
        #expect(undecodable.status == 1)
        #expect(undecodable.standardError.contains("unknown image format"))
        let file = try animation([Self.red])
        for arguments in [["--speed", "0"], ["--loops", "-1"], ["--width", "0"], ["--protocol", "png"], ["--loops", "0"]] {
            #expect(try yy(["image", "play", file] + arguments).status == 2, "\(arguments)")
        }
    }
}

/// `yy image play` in a tmux pane, read back with `capture-pane -e`.
@Suite(.serialized, .enabled(if: Tmux.path != nil, "tmux is not installed; scripts/setup --reference installs it"))
struct ImagePlayInTmuxTests {
    let folder = TemporaryDirectory("tmux")

    @Test func showsTheFramesColoursChangesOverTimeAndCtrlCRestoresTheCursor() throws {
        let tmux = try Tmux(command: try playCommand())
        defer { tmux.kill() }
        // Frame 0 (red) fills the top-left 8 × 4 cells, and nothing right of them.
        let red = Screen.Colors(foreground: "38;2;255;0;0", background: "48;2;255;0;0")
        try tmux.wait("red frame") { screen in
            screen.cell(0, 0)?.colors == red && screen.cell(7, 3)?.colors == red && (screen.cell(8, 0)?.text ?? " ") == " "
        }
        #expect(try tmux.value("#{cursor_flag}") == "0")  // hidden while playing
        try tmux.wait("blue frame") { $0.cell(3, 2)?.colors.background == "48;2;0;0;255" }
        try tmux.wait("green frame") { $0.cell(3, 2)?.colors.background == "48;2;0;255;0" }
        try tmux.run(["send-keys", "-t", Tmux.target, "C-c"])
        try expectRestored(tmux)
    }

    @Test func sigtermRestoresTheTerminalToo() throws {
        let tmux = try Tmux(command: try playCommand())
        defer { tmux.kill() }
        try tmux.wait("red frame") { $0.cell(0, 0)?.colors.background == "48;2;255;0;0" }
        // The pane runs a shell; the player is its child.
        let shell = try tmux.value("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let player = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        kill(player, SIGTERM)
        try expectRestored(tmux)
    }

    @Test func aFiniteLoopEndsByItselfOnItsLastFrame() throws {
        let tmux = try Tmux(command: try playCommand("--loops 1"))
        defer { tmux.kill() }
        try expectRestored(tmux)
        #expect(try tmux.screen().cell(3, 2)?.colors.background == "48;2;0;255;0")  // green, the last frame
    }

    @Test func aResizedTerminalGetsThePictureReFitted() throws {
        let tmux = try Tmux(command: try playCommand())
        defer { tmux.kill() }
        func width(_ screen: Screen, row: Int) -> Int {
            screen.rows.indices.contains(row) ? screen.rows[row].filter { $0.text != " " }.count : 0
        }
        try tmux.wait("the 8 × 8 picture on 8 × 4 cells") { width($0, row: 1) == 8 && width($0, row: 3) == 8 }
        // Four rows leave three for the picture: 6 × 6 pixels on 6 × 3 cells.
        try tmux.run(["resize-window", "-t", Tmux.target, "-x", "60", "-y", "4"])
        try tmux.wait("the picture re-fitted") { width($0, row: 1) == 6 && width($0, row: 3) == 0 }
        let screen = try tmux.screen()
        #expect((0..<3).map { width(screen, row: $0) } == [6, 6, 6])
        #expect(width(screen, row: 3) == 0)
        #expect(screen.cell(5, 2)?.colors.background != nil)
        #expect((screen.cell(6, 1)?.text ?? " ") == " ")
        // And back: each resize is a signal, and none may be lost, whichever thread gets it.
        for _ in 0..<3 {
            try tmux.run(["resize-window", "-t", Tmux.target, "-x", "60", "-y", "20"])
            try tmux.wait("the picture back at 8 × 4 cells") { width($0, row: 1) == 8 && width($0, row: 3) == 8 }
            try tmux.run(["resize-window", "-t", Tmux.target, "-x", "60", "-y", "4"])
            try tmux.wait("the picture re-fitted again") { width($0, row: 1) == 6 && width($0, row: 3) == 0 }
        }
        try tmux.run(["send-keys", "-t", Tmux.target, "C-c"])
    }

    /// After the player ended: its exit status printed by the shell on the line below the
    /// picture, in default colours, with the cursor visible.
    private func expectRestored(_ tmux: Tmux) throws {
        try tmux.wait("the player to exit") { screen in screen.rows.indices.contains(4) && String(screen.rows[4].map(\.text)).hasPrefix("exit=") }
        let screen = try tmux.screen()
        #expect(String(screen.rows[4].map(\.text)) == "exit=0")
        #expect(screen.cell(0, 4)?.colors == Screen.Colors(foreground: nil, background: nil))
        #expect(try tmux.value("#{cursor_flag}") == "1")
    }

    /// The player in a shell that ignores Ctrl-C itself, prints the player's exit status and
    /// keeps the pane open.
    private func playCommand(_ arguments: String = "") throws -> String {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        let file = try ImagePlayCommandTests.writeAnimation(
            [ImagePlayCommandTests.red, ImagePlayCommandTests.blue, ImagePlayCommandTests.green], in: folder)
        return "trap '' INT; '\(binary)' image play '\(file)' \(arguments); echo exit=$?; exec cat"
    }
}

/// A private tmux server (its own socket) running one shell command in a detached 60 × 20 pane.
struct Tmux {
    static let target = "play"
    static let path = ChildProcess.systemExecutable("tmux")
    let socket = "yykit-\(UUID().uuidString.prefix(8))"

    init(command: String) throws {
        try run([
            "-f", "/dev/null", "new-session", "-d", "-s", Self.target, "-x", "60", "-y", "20",
            "-e", "COLORTERM=truecolor", "/bin/sh", "-c", command,
        ])
    }

    /// Runs a tmux command and returns what it printed. The server that `new-session` starts
    /// would inherit every descriptor of the tmux client, the output pipes among them, and keep
    /// them open: so tmux runs from a shell that closes every descriptor above 2 and sends its
    /// output to a file (the shell's `$0`).
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let closeInheritedAndRun =
            #"for fd in /proc/self/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done 2>/dev/null; exec "$@" </dev/null >"$0" 2>&1"#
        let finished = try ChildProcess.run(
            "/bin/bash", ["-c", closeInheritedAndRun, output.path, try #require(Self.path), "-L", socket] + arguments,
            timeLimit: .seconds(30))
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(finished.status == 0 && !finished.terminatedBySignal, "tmux \(arguments.joined(separator: " ")): \(text)")
        return text
    }

    func value(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", Self.target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func screen() throws -> Screen {
        Screen(capture: try run(["capture-pane", "-p", "-e", "-t", Self.target]))
    }

    /// Re-reads the pane until `condition` holds, failing after 20 seconds (tmux has no event to
    /// wait on from outside, so this polls every 20 ms).
    func wait(_ what: String, _ condition: (Screen) throws -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try condition(try screen()) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record("timed out waiting for \(what); screen:\n\(try screen().capture)")
        throw CancellationError()
    }

    /// Ends the session, and with it the server (`kill-server` leaves this one running).
    func kill() {
        _ = try? run(["kill-session", "-t", Self.target])
    }
}

/// The cells of a `capture-pane -e` capture, with the SGR colours in force at each.
struct Screen {
    struct Colors: Equatable {
        var foreground: String?
        var background: String?
    }

    struct Cell {
        var text: Character
        var colors: Colors
    }

    let capture: String
    let rows: [[Cell]]

    init(capture: String) {
        self.capture = capture
        var rows: [[Cell]] = []
        var colors = Colors()
        for line in capture.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [Cell] = []
            var characters = line[...]
            while let character = characters.first {
                if character == "\u{1B}", characters.dropFirst().first == "[",
                    let end = characters.firstIndex(where: { $0 == "m" })
                {
                    let parameters = characters[characters.index(characters.startIndex, offsetBy: 2)..<end]
                    Self.apply(String(parameters), to: &colors)
                    characters = characters[characters.index(after: end)...]
                } else {
                    cells.append(Cell(text: character, colors: colors))
                    characters = characters.dropFirst()
                }
            }
            rows.append(cells)
        }
        self.rows = rows
    }

    /// Cell at column `x`, row `y`, if the capture reaches it.
    func cell(_ x: Int, _ y: Int) -> Cell? {
        rows.indices.contains(y) && rows[y].indices.contains(x) ? rows[y][x] : nil
    }

    /// Applies SGR parameters (as tmux writes them: one colour per sequence, 39/49/0 resets).
    private static func apply(_ parameters: String, to colors: inout Colors) {
        let fields = parameters.split(separator: ";").map(String.init)
        var index = 0
        while index < fields.count {
            switch fields[index] {
            case "0", "": colors = Colors()
            case "39": colors.foreground = nil
            case "49": colors.background = nil
            case "38", "48":
                let count = fields.indices.contains(index + 1) && fields[index + 1] == "2" ? 5 : 3
                let value = fields[index..<min(fields.count, index + count)].joined(separator: ";")
                if fields[index] == "38" { colors.foreground = value } else { colors.background = value }
                index += count - 1
            default: break
            }
            index += 1
        }
    }
}

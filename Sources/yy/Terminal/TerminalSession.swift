import Dispatch
import Foundation
import YYDispatch

/// The controlling terminal while `yy image play` draws on it: its size, a query with a time
/// limit, and the modes playback changes (cursor hidden, keys not echoed), always put back.
final class TerminalSession: Sendable {
    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// The terminal's size in cells, and a cell's size in pixels when the terminal reports it.
    struct Size: Equatable {
        var columns: Int
        var rows: Int
        var cellPixels: (width: Int, height: Int)?

        static func == (a: Size, b: Size) -> Bool {
            a.columns == b.columns && a.rows == b.rows && a.cellPixels?.width == b.cellPixels?.width
                && a.cellPixels?.height == b.cellPixels?.height
        }
    }

    /// The settings of standard input before playback changed them.
    private let savedModes = Locked<termios?>(nil)

    /// The size of the terminal on standard output (80 × 24 when it does not say).
    func size() -> Size {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return Size(columns: 80, rows: 24, cellPixels: nil)
        }
        let cell =
            window.ws_xpixel > 0 && window.ws_ypixel > 0
            ? (Int(window.ws_xpixel) / Int(window.ws_col), Int(window.ws_ypixel) / Int(window.ws_row)) : nil
        return Size(columns: Int(window.ws_col), rows: Int(window.ws_row), cellPixels: cell)
    }

    /// Sends `query` to the terminal and collects its reply until `isComplete` says so or
    /// `timeout` passes; `nil` when there is no terminal to ask or nothing came back.
    func ask(_ query: [UInt8], timeout: Duration, isComplete: ([UInt8]) -> Bool) -> [UInt8]? {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var original = termios()
        guard tcgetattr(tty, &original) == 0 else { return nil }
        // Keys (and the reply) arrive unbuffered and unechoed while we listen.
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(tty, TCSANOW, &raw)
        defer { tcsetattr(tty, TCSANOW, &original) }
        guard Self.write(query, to: tty) else { return nil }
        var reply: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while !isComplete(reply) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var descriptor = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: max(1, left.saturatingMilliseconds))
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 256)
            let count = read(tty, &chunk, chunk.count)
            guard count > 0 else { break }
            reply += chunk[0..<count]
        }
        return reply.isEmpty ? nil : reply
    }

    /// Enters playback: keys are not echoed over the picture, the cursor is hidden, `rows` lines
    /// are made free below the cursor and its position is saved as the picture's top-left.
    func begin(reservingRows rows: Int) {
        var modes = termios()
        if isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &modes) == 0 {
            savedModes.withLock { $0 = modes }
            var quiet = modes
            quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        write(Array("\u{1B}[?25l".utf8))
        reserve(rows: rows)
    }

    /// Makes `rows` lines free from the cursor down (scrolling if needed) and saves the position.
    func reserve(rows: Int) {
        var bytes = Array("\r".utf8) + [UInt8](repeating: UInt8(ascii: "\n"), count: max(0, rows - 1))
        if rows > 1 { bytes += Array("\u{1B}[\(rows - 1)A".utf8) }
        bytes += Array("\u{1B}7".utf8)
        write(bytes)
    }

    /// Clears from the picture's top-left to the end of the screen (before re-fitting).
    func clearPicture() {
        write(Array("\u{1B}8\u{1B}[J".utf8))
    }

    /// Leaves playback: the cursor below the picture and shown again, colours reset, the
    /// terminal's modes as they were. Safe to call more than once.
    func end(pictureRows rows: Int) {
        var bytes = Array("\u{1B}[?2026l\u{1B}8".utf8)
        if rows > 0 { bytes += Array("\u{1B}[\(rows)B".utf8) }
        bytes += Array("\r\u{1B}[0m\u{1B}[?25h".utf8)
        write(bytes)
        if var modes = savedModes.withLock({ saved -> termios? in
            defer { saved = nil }; return saved
        }) {
            tcsetattr(STDIN_FILENO, TCSANOW, &modes)
        }
    }

    /// Writes all of `bytes` to standard output.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        Self.write(bytes, to: STDOUT_FILENO)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}

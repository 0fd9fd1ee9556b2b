import Foundation
import Synchronization

/// A one-line progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar: Sendable {
    private let title: String
    private let enabled: Bool
    private let lastDrawn = Mutex<Int>(-1)

    init(title: String) {
        self.title = title
        enabled = StandardStreams.standardErrorIsTerminal
    }

    /// Shows `done` of `total`; redraws only when the percentage changes.
    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        let changed = lastDrawn.withLock { last in
            defer { last = percent }
            return last != percent
        }
        guard changed else { return }
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        StandardStreams.writeError("\r\(title) [\(bar)] \(percent)% (\(done)/\(total))")
    }

    /// Ends the line.
    func finish() {
        guard enabled, lastDrawn.withLock({ $0 >= 0 }) else { return }
        StandardStreams.writeError("\n")
    }
}

package import YYImage

/// Draws frames of an animation in a terminal, each as escape sequences that start from the
/// saved cursor position (`ESC 7`) at the image's top-left cell.
package protocol TerminalImageRenderer {
    /// The bytes that draw `frame` (already at the size the renderer wants) on a `columns` ×
    /// `rows` cell area. A renderer may send only what changed since its last frame.
    mutating func draw(_ frame: Bitmap, columns: Int, rows: Int) -> [UInt8]
    /// Forgets what is on screen (after a resize or a clear): the next frame is drawn whole.
    mutating func reset()
    /// The bytes that clean up when playback ends (kitty deletes its images).
    mutating func finish() -> [UInt8]
}

extension TerminalImageRenderer {
    package mutating func finish() -> [UInt8] { [] }
}

/// Escape sequences used by more than one renderer.
enum Escape {
    static let esc: UInt8 = 0x1B
    /// Back to the saved cursor position (DECRC).
    static let restoreCursor: [UInt8] = [esc, UInt8(ascii: "8")]
    /// Synchronized output: the terminal shows what comes between as one update.
    static let beginSynchronizedUpdate = Array("\u{1B}[?2026h".utf8)
    static let endSynchronizedUpdate = Array("\u{1B}[?2026l".utf8)
    static let resetAttributes = Array("\u{1B}[0m".utf8)

    /// Moves from the saved position to cell (`row`, `column`) of the image.
    static func moveFromSaved(row: Int, column: Int) -> [UInt8] {
        var bytes = restoreCursor
        if row > 0 { bytes += Array("\u{1B}[\(row)B".utf8) }
        if column > 0 { bytes += Array("\u{1B}[\(column)C".utf8) }
        return bytes
    }
}

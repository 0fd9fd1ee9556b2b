import Foundation
package import YYImage

/// Draws frames as iTerm2 inline images (OSC 1337): each frame a PNG, sized to the cell area.
package struct ITermRenderer: TerminalImageRenderer {
    /// A renderer.
    package init() {}

    package mutating func draw(_ frame: Bitmap, columns: Int, rows: Int) -> [UInt8] {
        var encoder = ImageEncoder(type: .png)
        encoder.alwaysWritesAlpha = true
        encoder.addFrame(frame)
        // Encoding a bitmap as PNG fails only on sizes a player never makes; draw nothing then.
        guard let png = try? encoder.encode() else { return [] }
        let header = "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);preserveAspectRatio=1:"
        return Escape.beginSynchronizedUpdate + Escape.restoreCursor + Array(header.utf8)
            + Array(png.base64EncodedString().utf8) + [0x07] + Escape.endSynchronizedUpdate
    }

    package mutating func reset() {}
}

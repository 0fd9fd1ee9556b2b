package import YYImage

/// Draws pixels as Unicode half blocks: each text cell shows two pixel rows, the upper one in
/// the foreground colour of `▀`, the lower one in the background colour. Transparent pixels show
/// the terminal's own background; partly transparent ones are blended over `background`.
///
/// In a terminal it redraws only the cells that changed since the last frame, each frame inside
/// synchronized-output mode. ``lines(for:)`` gives a whole frame as plain lines instead (for
/// output that is not a terminal).
package struct HalfBlockRenderer: TerminalImageRenderer {
    /// The colours the terminal takes.
    package var colorMode: TerminalColorMode
    /// What partly transparent pixels are blended over (the terminal's background if known).
    package var background: RGB
    private var shown: [Cell]?

    /// One text cell: the colours of its two halves (`nil`: the terminal's background).
    struct Cell: Equatable {
        var top: RGB?
        var bottom: RGB?
    }

    /// A renderer for a terminal with `colorMode`.
    package init(colorMode: TerminalColorMode, background: RGB = RGB(0, 0, 0)) {
        self.colorMode = colorMode
        self.background = background
    }

    /// The cell area a bitmap of this size takes: one column per pixel, two pixel rows per row.
    package static func cells(width: Int, height: Int) -> (columns: Int, rows: Int) {
        (width, (height + 1) / 2)
    }

    package mutating func draw(_ frame: Bitmap, columns: Int, rows: Int) -> [UInt8] {
        let cells = self.cells(of: frame)
        let (columns, rows) = Self.cells(width: frame.width, height: frame.height)
        var out = Escape.beginSynchronizedUpdate
        for row in 0..<rows {
            var column = 0
            while column < columns {
                let index = row * columns + column
                if let shown, shown.count == cells.count, shown[index] == cells[index] {
                    column += 1
                    continue
                }
                // A run of changed cells, drawn from its first cell.
                out += Escape.moveFromSaved(row: row, column: column)
                var previous: Cell?
                while column < columns {
                    let index = row * columns + column
                    if let shown, shown.count == cells.count, shown[index] == cells[index] { break }
                    append(cells[index], after: previous, to: &out)
                    previous = cells[index]
                    column += 1
                }
                out += Escape.resetAttributes
            }
        }
        out += Escape.endSynchronizedUpdate
        shown = cells
        return out
    }

    package mutating func reset() {
        shown = nil
    }

    /// The whole frame as lines of text, each ending in an attribute reset and a newline.
    package func lines(for frame: Bitmap) -> [UInt8] {
        let cells = self.cells(of: frame)
        let (columns, rows) = Self.cells(width: frame.width, height: frame.height)
        var out: [UInt8] = []
        for row in 0..<rows {
            var previous: Cell?
            for column in 0..<columns {
                let cell = cells[row * columns + column]
                append(cell, after: previous, to: &out)
                previous = cell
            }
            out += Escape.resetAttributes
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// The cells of `frame`, row by row (an odd last pixel row gets the background below it).
    func cells(of frame: Bitmap) -> [Cell] {
        let (columns, rows) = Self.cells(width: frame.width, height: frame.height)
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        let straight = frame.alphaMode == .straight ? frame : frame.straightened()
        for row in 0..<rows {
            for column in 0..<columns {
                let top = background.composite(straight[column, row * 2])
                let bottom = row * 2 + 1 < frame.height ? background.composite(straight[column, row * 2 + 1]) : nil
                cells.append(Cell(top: top, bottom: bottom))
            }
        }
        return cells
    }

    /// The cell's glyph, after its colours when they differ from the previous cell's.
    private func append(_ cell: Cell, after previous: Cell?, to out: inout [UInt8]) {
        // Upper half in the foreground; a cell with only its lower half coloured uses `▄`.
        let (glyph, foreground, background): (String, RGB?, RGB?) =
            switch (cell.top, cell.bottom) {
            case (nil, nil): (" ", nil, nil)
            case (nil, let bottom?): ("▄", bottom, nil)
            case (let top?, let bottom): ("▀", top, bottom)
            }
        if previous != cell {
            out += Array("\u{1B}[0;\(sgr(foreground, isBackground: false));\(sgr(background, isBackground: true))m".utf8)
        }
        out += Array(glyph.utf8)
    }

    /// The SGR parameters of a colour (`nil`: the terminal's default).
    private func sgr(_ color: RGB?, isBackground: Bool) -> String {
        guard let color else { return isBackground ? "49" : "39" }
        let base = isBackground ? 48 : 38
        switch colorMode {
        case .trueColor: return "\(base);2;\(color.r);\(color.g);\(color.b)"
        case .palette256: return "\(base);5;\(XtermPalette.index(of: color))"
        }
    }
}

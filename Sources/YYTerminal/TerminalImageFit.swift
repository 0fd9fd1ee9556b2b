/// How big an image is drawn in a terminal: its pixels and the cells they cover.
package struct TerminalImageFit: Sendable, Equatable {
    /// Width of the bitmap to send, in pixels.
    package var pixelWidth: Int
    /// Height of the bitmap to send, in pixels.
    package var pixelHeight: Int
    /// Columns the image covers.
    package var columns: Int
    /// Rows the image covers.
    package var rows: Int

    /// A fit.
    package init(pixelWidth: Int, pixelHeight: Int, columns: Int, rows: Int) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.columns = columns
        self.rows = rows
    }

    /// The most pixels a fit has (2048 × 2048: 16 MB of RGBA, a million cells of blocks): a
    /// requested width far beyond any terminal, or a tall strip asked for at a modest width, must
    /// not allocate gigabytes (`--width 100000` asked for 40 GB).
    package static let maximumPixelCount = 2048 * 2048

    /// The fit of a `width` × `height` image.
    ///
    /// - Parameters:
    ///   - protocol: blocks take one pixel per column and two per row; the others show real
    ///     pixels, `cellPixels` to a cell.
    ///   - requestedColumns: the width asked for (`--width`): the image is scaled to exactly that
    ///     many columns, up or down, unless that would pass ``maximumPixelCount``. `nil`: fit in
    ///     `terminalColumns` × `terminalRows`, keeping the aspect ratio, never enlarging.
    ///   - cellPixels: a cell's size in pixels, when the terminal says (else 10 × 20).
    package static func fit(
        width: Int, height: Int, protocol: TerminalGraphicsProtocol,
        requestedColumns: Int?, terminalColumns: Int, terminalRows: Int,
        cellPixels: (width: Int, height: Int)? = nil
    ) -> TerminalImageFit {
        let (width, height) = (max(1, width), max(1, height))
        let cell: (width: Double, height: Double) =
            `protocol` == .blocks
            ? (1, 2)
            : (Double(max(1, cellPixels?.width ?? 10)), Double(max(1, cellPixels?.height ?? 20)))
        let naturalColumns = Double(width) / cell.width
        let naturalRows = Double(height) / cell.height
        var scale: Double
        if let requestedColumns {
            scale = Double(max(1, requestedColumns)) / naturalColumns
        } else {
            scale = min(1, Double(max(1, terminalColumns)) / naturalColumns, Double(max(1, terminalRows)) / naturalRows)
        }
        let pixelCount = Double(width) * Double(height) * scale * scale
        if pixelCount > Double(maximumPixelCount) { scale *= (Double(maximumPixelCount) / pixelCount).squareRoot() }
        let pixelWidth = max(1, Int((Double(width) * scale).rounded()))
        let pixelHeight = max(1, Int((Double(height) * scale).rounded()))
        let columns = max(1, Int((Double(pixelWidth) / cell.width).rounded(.up)))
        let rows = max(1, Int((Double(pixelHeight) / cell.height).rounded(.up)))
        return TerminalImageFit(pixelWidth: pixelWidth, pixelHeight: pixelHeight, columns: columns, rows: rows)
    }
}

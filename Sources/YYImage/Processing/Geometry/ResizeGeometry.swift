/// The sizes a fit produces, by sharp's rules: `inside` and `outside` keep the aspect ratio
/// (rounded to the nearest pixel, at least 1); `cover`, `contain` and `fill` give exactly the
/// box; with one side given, the other follows the aspect ratio. Without `enlarge` nothing grows
/// past the source: `inside`/`outside` stop at the source size, `cover` and `fill` crop or stretch
/// to the box's sides clipped to the source's, `contain` pads the unscaled image.
struct ResizeGeometry: Equatable, Sendable {
    /// The size the source is scaled to.
    var scaledWidth: Int
    var scaledHeight: Int
    /// The final canvas: the scaled image cropped (`cover`) or padded (`contain`) to it.
    var canvasWidth: Int
    var canvasHeight: Int

    init(sourceWidth w: Int, sourceHeight h: Int, width: Int?, height: Int?, fit: FitMode, enlarge: Bool) {
        precondition(w > 0 && h > 0, "empty source")
        // One side given (or a fit that keeps the aspect with both): the other follows.
        guard let boxW = width ?? height.map({ Self.scale(w, by: $0, over: h) }),
            let boxH = height ?? width.map({ Self.scale(h, by: $0, over: w) })
        else {
            (scaledWidth, scaledHeight, canvasWidth, canvasHeight) = (w, h, w, h)
            return
        }
        let oneSide = width == nil || height == nil
        switch fit {
        case .fill:
            let (fw, fh) = enlarge ? (boxW, boxH) : (min(boxW, w), min(boxH, h))
            (scaledWidth, scaledHeight, canvasWidth, canvasHeight) = (fw, fh, fw, fh)
        case .inside, .outside, .contain, .cover:
            // Which side governs: for inside/contain the tighter one, for outside/cover the looser.
            let widthGoverns = (w * boxH >= h * boxW) == (fit == .inside || fit == .contain)
            var sw = widthGoverns ? boxW : Self.scale(w, by: boxH, over: h)
            var sh = widthGoverns ? Self.scale(h, by: boxW, over: w) : boxH
            if oneSide { (sw, sh) = (boxW, boxH) }
            if !enlarge && (sw > w || sh > h) { (sw, sh) = (w, h) }
            switch fit {
            case .inside, .outside:
                (scaledWidth, scaledHeight, canvasWidth, canvasHeight) = (sw, sh, sw, sh)
            case .contain:
                (scaledWidth, scaledHeight, canvasWidth, canvasHeight) = (sw, sh, boxW, boxH)
            default:
                (scaledWidth, scaledHeight) = (sw, sh)
                (canvasWidth, canvasHeight) = (min(boxW, sw), min(boxH, sh))
            }
        }
    }

    /// `side * target / over`, rounded to nearest, at least 1 (integer arithmetic: exact for any size).
    static func scale(_ side: Int, by target: Int, over: Int) -> Int {
        let (product, overflow) = side.multipliedReportingOverflow(by: target)
        guard !overflow else { return max(1, Int((Double(side) * Double(target) / Double(over)).rounded())) }
        return max(1, (product + over / 2) / over)
    }
}

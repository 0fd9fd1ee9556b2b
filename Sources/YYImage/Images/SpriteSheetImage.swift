/// An animation whose frames are rectangles of one sheet image (YYSpriteSheetImage).
///
/// `contentsRect(at:)` gives each frame's rectangle in unit coordinates of the sheet (clipped to
/// 0...1), for renderers that show part of one texture; `frame(at:)` crops the sprite out.
public final class SpriteSheetImage: AnimatedImage {
    /// The sheet.
    public let sheet: Bitmap
    /// Each frame's rectangle on the sheet, in pixels.
    public let contentRects: [PixelRect]
    /// Plays of the animation, 0 = forever.
    public let loopCount: Int
    /// The rule lengthening too-short frame durations.
    public let durationRule: FrameDurationRule
    /// Seconds each frame shows, as given (never negative); the rule applies when read.
    let frameDurations: [Double]

    /// The most pixels a content rectangle may cover: what ``ImageDecoder`` decodes by default.
    public static let maximumSpritePixelCount = ImageDecoder.Options().maxPixelCount

    /// A sprite animation.
    ///
    /// A rectangle may reach past the sheet (that part of the sprite is transparent).
    /// - Throws: `ImageError.invalidInput` when there are no rectangles, the counts differ, or a
    ///   rectangle has a negative size, more than ``maximumSpritePixelCount`` pixels, or edges no
    ///   `Int` holds. Rectangles often come from a sprite atlas's metadata file, so every one is
    ///   checked here: no edge overflows and no `frame(at:)` allocates more than the limit.
    public init(
        sheet: Bitmap, contentRects: [PixelRect], frameDurations: [Double], loopCount: Int = 0,
        durationRule: FrameDurationRule = .default
    ) throws(ImageError) {
        guard !contentRects.isEmpty else { throw .invalidInput("no content rectangles") }
        guard contentRects.count == frameDurations.count else {
            throw .invalidInput("\(contentRects.count) rectangles but \(frameDurations.count) durations")
        }
        for (index, rect) in contentRects.enumerated() {
            let right = rect.x.addingReportingOverflow(rect.width), bottom = rect.y.addingReportingOverflow(rect.height)
            let area = rect.width.multipliedReportingOverflow(by: rect.height)
            guard rect.width >= 0, rect.height >= 0, !right.overflow, !bottom.overflow,
                !area.overflow, area.partialValue <= Self.maximumSpritePixelCount
            else {
                throw .invalidInput(
                    "content rectangle \(index) (x \(rect.x), y \(rect.y), \(rect.width)x\(rect.height)) "
                        + "needs a size of 0...\(Self.maximumSpritePixelCount) pixels and edges an Int holds")
            }
        }
        self.sheet = sheet
        self.contentRects = contentRects
        self.loopCount = max(0, loopCount)
        self.durationRule = durationRule
        self.frameDurations = frameDurations.map { max(0, $0) }
    }

    /// The number of frames: one per content rectangle.
    public var frameCount: Int { contentRects.count }

    /// 0: every frame is part of the one sheet, which is already decoded.
    public var bytesPerFrame: Int { 0 }

    /// The sprite of frame `index`, cropped from the sheet (the part outside the sheet is
    /// transparent).
    public func frame(at index: Int) throws(ImageError) -> Bitmap {
        guard contentRects.indices.contains(index) else { throw .frameOutOfRange(index: index, count: frameCount) }
        return sheet.cropped(to: contentRects[index])
    }

    /// The sheet and frame `index`'s rectangle on it: players show part of the one sheet rather
    /// than a cropped copy per frame.
    public func contents(at index: Int) throws(ImageError) -> FrameContents {
        guard contentRects.indices.contains(index) else { throw .frameOutOfRange(index: index, count: frameCount) }
        // An empty sheet has no unit coordinates: the frame is an empty part of it.
        return FrameContents(bitmap: sheet, contentsRect: contentsRect(at: index) ?? UnitRect(x: 0, y: 0, width: 0, height: 0))
    }

    /// How long frame `index` shows, in seconds, with `durationRule` applied.
    public func duration(at index: Int) -> Double {
        frameDurations.indices.contains(index) ? durationRule.apply(to: frameDurations[index]) : 0
    }

    /// The frame's rectangle in unit coordinates of the sheet, clipped to 0...1.
    public func contentsRect(at index: Int) -> UnitRect? {
        guard contentRects.indices.contains(index), sheet.width > 0, sheet.height > 0 else { return nil }
        let rect = contentRects[index]
        let x0 = min(1, max(0, Double(rect.x) / Double(sheet.width)))
        let y0 = min(1, max(0, Double(rect.y) / Double(sheet.height)))
        let x1 = min(1, max(0, Double(rect.x + rect.width) / Double(sheet.width)))
        let y1 = min(1, max(0, Double(rect.y + rect.height) / Double(sheet.height)))
        return UnitRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

internal import Foundation

/// A `SpriteSheetImage` archives as its sheet (lossless PNG), rectangles, durations, loop count
/// and duration rule; the sheet decodes with the limits of ``CodingUserInfoKey/imageDecoderOptions``.
extension SpriteSheetImage: Codable {
    private enum CodingKeys: String, CodingKey {
        case sheet, contentRects, durations, loopCount, durationRule
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(try ImageArchive.losslessFile([sheet]), forKey: .sheet)
        try container.encode(contentRects, forKey: .contentRects)
        try container.encode(frameDurations, forKey: .durations)
        try container.encode(loopCount, forKey: .loopCount)
        try container.encode(durationRule, forKey: .durationRule)
    }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let sheets = try ImageArchive.frames(of: try container.decode(Data.self, forKey: .sheet), options: ImageArchive.options(decoder))
        guard sheets.count == 1 else { throw ImageError.malformed(.png, "an archived sprite sheet of \(sheets.count) frames") }
        try self.init(
            sheet: sheets[0],
            contentRects: try container.decode([PixelRect].self, forKey: .contentRects),
            frameDurations: try container.decode([Double].self, forKey: .durations),
            loopCount: try container.decode(Int.self, forKey: .loopCount),
            durationRule: try container.decodeIfPresent(FrameDurationRule.self, forKey: .durationRule) ?? .default)
    }
}

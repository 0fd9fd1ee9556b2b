internal import Foundation

/// A `FrameImage` archives as the bytes of every frame (files are read when it is encoded), its
/// durations, loop count and duration rule; it decodes with the limits of
/// ``CodingUserInfoKey/imageDecoderOptions``.
extension FrameImage: Codable {
    private enum CodingKeys: String, CodingKey {
        case frames, durations, loopCount, durationRule
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let frames = try sources.map { (source) throws(ImageError) -> Data in
            switch source {
            case .data(let data): data
            case .file(let path): try ImageError.readFile(atPath: path)
            }
        }
        try container.encode(frames, forKey: .frames)
        try container.encode(frameDurations, forKey: .durations)
        try container.encode(loopCount, forKey: .loopCount)
        try container.encode(durationRule, forKey: .durationRule)
    }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            sources: try container.decode([Data].self, forKey: .frames).map(Source.data),
            frameDurations: try container.decode([Double].self, forKey: .durations),
            loopCount: try container.decode(Int.self, forKey: .loopCount),
            options: ImageArchive.options(decoder),
            durationRule: try container.decodeIfPresent(FrameDurationRule.self, forKey: .durationRule) ?? .default)
    }
}

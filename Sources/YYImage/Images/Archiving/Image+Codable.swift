internal import Foundation

/// An `Image` archives as its original bytes, type and scale (YYImage's NSCoding), so an
/// animation comes back with the same frames, durations and loop count; an image made from
/// bitmaps archives its frames as lossless PNG or APNG, with their exact durations. Decoding
/// applies the decode limits of ``CodingUserInfoKey/imageDecoderOptions``, and bytes that do not
/// decode, or decode to another type, are an `ImageError`.
extension Image: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, scale, data, durationRule, durations, loopCount
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(scale, forKey: .scale)
        try container.encode(durationRule, forKey: .durationRule)
        if let decoder = self.decoder {
            try container.encode(decoder.originalBytes, forKey: .data)
        } else {
            let frames = try (0..<frameCount).map { (index) throws(ImageError) in try frame(at: index) }
            try container.encode(try ImageArchive.losslessFile(frames, durations: durations, loopCount: loopCount), forKey: .data)
            try container.encode(durations, forKey: .durations)
            try container.encode(loopCount, forKey: .loopCount)
        }
    }

    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(ImageType.self, forKey: .type)
        let scale = try container.decode(Double.self, forKey: .scale)
        let rule = try container.decodeIfPresent(FrameDurationRule.self, forKey: .durationRule) ?? .default
        let data = try container.decode(Data.self, forKey: .data)
        let options = ImageArchive.options(decoder)
        if let durations = try container.decodeIfPresent([Double].self, forKey: .durations) {
            let frames = try ImageArchive.frames(of: data, options: options)
            guard !frames.isEmpty, frames.count == durations.count else {
                throw ImageError.malformed(.png, "an archived image of \(frames.count) frames and \(durations.count) durations")
            }
            let loopCount = try container.decodeIfPresent(Int.self, forKey: .loopCount) ?? 0
            self.init(decodedFrames: frames, durations: durations, loopCount: loopCount, type: type, scale: scale)
        } else {
            let imageDecoder = try ImageDecoder(data: data, options: options)
            guard imageDecoder.type == type else {
                throw ImageError.malformed(type, "the archived bytes are \(imageDecoder.type?.rawValue ?? "no image"), not \(type.rawValue)")
            }
            try self.init(decoder: imageDecoder, scale: scale, durationRule: rule)
        }
    }
}

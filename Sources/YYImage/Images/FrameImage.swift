public import Foundation

/// An animation made of separate image files or data, one per frame (YYFrameImage). Frames are
/// decoded when asked for; frame 0 is decoded at once to learn the frame size.
public final class FrameImage: AnimatedImage {
    /// Where a frame comes from.
    public enum Source: Sendable {
        /// An image file.
        case file(String)
        /// Encoded image bytes.
        case data(Data)
    }

    /// The number of frames.
    public let frameCount: Int
    /// Plays of the animation, 0 = forever.
    public let loopCount: Int
    /// Bytes frame 0 takes decoded (RGBA8).
    public let bytesPerFrame: Int
    /// The rule lengthening too-short frame durations.
    public let durationRule: FrameDurationRule
    let sources: [Source]
    /// Seconds each frame shows, as given (never negative); the rule applies when read.
    let frameDurations: [Double]
    private let options: ImageDecoder.Options

    /// Frames with one duration each.
    /// - Throws: `ImageError.invalidInput` when there are no frames or the counts differ, or
    ///   the error decoding frame 0.
    public init(
        sources: [Source], frameDurations: [Double], loopCount: Int = 0, options: ImageDecoder.Options = ImageDecoder.Options(),
        durationRule: FrameDurationRule = .default
    ) throws(ImageError) {
        guard !sources.isEmpty else { throw .invalidInput("no frames") }
        guard sources.count == frameDurations.count else {
            throw .invalidInput("\(sources.count) frames but \(frameDurations.count) durations")
        }
        self.sources = sources
        self.frameCount = sources.count
        self.loopCount = max(0, loopCount)
        self.durationRule = durationRule
        self.frameDurations = frameDurations.map { max(0, $0) }
        self.options = options
        let first = try Self.decode(sources[0], options: options)
        self.bytesPerFrame = first.width * first.height * 4
    }

    /// Frames that all show for `oneFrameDuration` seconds.
    public convenience init(
        sources: [Source], oneFrameDuration: Double, loopCount: Int = 0,
        options: ImageDecoder.Options = ImageDecoder.Options(),
        durationRule: FrameDurationRule = .default
    ) throws(ImageError) {
        try self.init(
            sources: sources, frameDurations: Array(repeating: oneFrameDuration, count: sources.count),
            loopCount: loopCount, options: options, durationRule: durationRule)
    }

    /// Frame `index`, decoded from its source now.
    public func frame(at index: Int) throws(ImageError) -> Bitmap {
        guard sources.indices.contains(index) else { throw .frameOutOfRange(index: index, count: frameCount) }
        return try Self.decode(sources[index], options: options)
    }

    /// How long frame `index` shows, in seconds, with `durationRule` applied.
    public func duration(at index: Int) -> Double {
        frameDurations.indices.contains(index) ? durationRule.apply(to: frameDurations[index]) : 0
    }

    private static func decode(_ source: Source, options: ImageDecoder.Options) throws(ImageError) -> Bitmap {
        let data: Data
        switch source {
        case .file(let path):
            let contents = try ImageError.readFile(atPath: path)
            data = contents
        case .data(let bytes):
            data = bytes
        }
        return try ImageDecoder(data: data, options: options).frame(at: 0)
    }
}

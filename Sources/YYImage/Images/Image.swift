public import Foundation
internal import YYDispatch

/// A still or animated image decoded from data or a file (YYImage).
///
/// Frame 0 is decoded when the image is made; other frames are decoded on demand from the
/// original bytes (kept for animations), or all at once with `preloadAllFrames()`. The scale
/// comes from an `@2x`-style file-name suffix (or the caller) and turns pixels into points.
public final class Image: AnimatedImage {
    /// The file type.
    public let type: ImageType
    /// Pixels per point: 2 for `name@2x.png`.
    public let scale: Double
    /// Canvas width in pixels.
    public let pixelWidth: Int
    /// Canvas height in pixels.
    public let pixelHeight: Int
    /// The number of frames (1 for a still image).
    public let frameCount: Int
    /// Plays of the animation, 0 = forever.
    public let loopCount: Int
    /// The rule lengthening too-short frames (default: under 11 ms shows 100 ms).
    public let durationRule: FrameDurationRule
    /// The original bytes of an animation (`nil` for a still image). The decoder keeps them for
    /// decoding frames on demand; this copies them out only when asked.
    public var animatedImageData: Data? { frameCount > 1 ? decoder?.originalBytes : nil }
    /// `nil` for an image made from a bitmap.
    let decoder: ImageDecoder?
    private let firstFrame: Bitmap
    /// Seconds each frame shows, the rule applied.
    let durations: [Double]
    private let preloaded = Locked<[Bitmap]?>(nil)

    /// Decodes `data`.
    /// - Parameters:
    ///   - data: a complete file of any type ``ImageDecoder`` reads.
    ///   - scale: pixels per point (values ≤ 0 mean 1).
    ///   - options: limits and output choices for every frame.
    ///   - durationRule: how too-short frame durations are lengthened.
    public convenience init(
        data: Data, scale: Double = 1, options: ImageDecoder.Options = ImageDecoder.Options(),
        durationRule: FrameDurationRule = .default
    ) throws(ImageError) {
        try self.init(decoder: ImageDecoder(data: data, options: options), scale: scale, durationRule: durationRule)
    }

    /// The image `decoder` holds, for a caller that made the decoder already (to check the
    /// data before keeping it, say): the container is not parsed a second time. The image
    /// decodes its other frames through `decoder`.
    /// - Throws: `ImageError.invalidUpdate` when the decoder's data is not final yet, or what
    ///   decoding the first frame throws.
    public init(decoder: ImageDecoder, scale: Double = 1, durationRule: FrameDurationRule = .default) throws(ImageError) {
        guard decoder.isFinal else { throw .invalidUpdate("the decoder's data is not final yet") }
        guard decoder.frameCount > 0, let type = decoder.type else { throw .malformed(decoder.type ?? .png, "no frames") }
        self.decoder = decoder
        self.type = type
        self.scale = scale > 0 ? scale : 1
        self.firstFrame = try decoder.frame(at: 0)
        self.pixelWidth = firstFrame.width
        self.pixelHeight = firstFrame.height
        self.frameCount = decoder.frameCount
        self.loopCount = decoder.loopCount
        self.durationRule = durationRule
        self.durations = decoder.frameInfos.map { durationRule.apply(to: $0.duration) }
    }

    /// A still image made from a bitmap, such as the result of a processor.
    /// - Parameters:
    ///   - bitmap: the pixels.
    ///   - type: the format the pixels came from (reported as ``type``).
    ///   - scale: pixels per point (values ≤ 0 mean 1).
    public convenience init(bitmap: Bitmap, type: ImageType = .png, scale: Double = 1) {
        self.init(decodedFrames: [bitmap], durations: [0], loopCount: 0, type: type, scale: scale)
    }

    /// An image of decoded frames, such as a processed animation: every frame is kept.
    /// - Parameters:
    ///   - frames: the frames, all of one size.
    ///   - durations: seconds each frame shows (as many as frames; used as they are).
    ///   - loopCount: plays of the animation, 0 = forever.
    ///   - type: the format the frames came from (reported as ``type``).
    ///   - scale: pixels per point (values ≤ 0 mean 1).
    /// - Throws: `ImageError.invalidInput` for no frames, frames of different sizes, or a
    ///   duration count that differs from the frame count.
    public convenience init(frames: [Bitmap], durations: [Double], loopCount: Int = 0, type: ImageType = .png, scale: Double = 1) throws(ImageError) {
        guard let first = frames.first else { throw .invalidInput("an image needs at least one frame") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw .invalidInput("the frames of an image must have one size")
        }
        guard durations.count == frames.count else {
            throw .invalidInput("\(durations.count) durations for \(frames.count) frames")
        }
        self.init(decodedFrames: frames, durations: durations, loopCount: loopCount, type: type, scale: scale)
    }

    /// An image of frames in memory (checked by the caller: at least one, all of one size, a
    /// duration each), with no decoder behind it.
    init(decodedFrames frames: [Bitmap], durations: [Double], loopCount: Int, type: ImageType, scale: Double) {
        self.decoder = nil
        self.type = type
        self.scale = scale > 0 ? scale : 1
        self.firstFrame = frames[0]
        self.pixelWidth = frames[0].width
        self.pixelHeight = frames[0].height
        self.frameCount = frames.count
        self.loopCount = max(0, loopCount)
        self.durationRule = .default
        self.durations = durations.map { max(0, $0) }
        if frames.count > 1 { self.preloaded.withLock { $0 = frames } }
    }

    /// Decodes a file; the scale comes from its name (`icon@2x.png` → 2, `icon.png` → 1).
    public convenience init(
        contentsOfFile path: String, options: ImageDecoder.Options = ImageDecoder.Options(),
        durationRule: FrameDurationRule = .default
    ) throws(ImageError) {
        let data = try ImageError.readFile(atPath: path)
        try self.init(data: data, scale: Self.scale(fromFileName: path), options: options, durationRule: durationRule)
    }

    /// The scale in a file name's `@<n>x` suffix before the extension (`@2x`, `@3x`, `@2.5x`); 1 without
    /// one, or when `n` is not a positive normal number.
    public static func scale(fromFileName path: String) -> Double {
        var name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard name.hasSuffix("x"), let at = name.lastIndex(of: "@") else { return 1 }
        name.removeLast()
        let number = name[name.index(after: at)...]
        // A normal number: `1e999` is infinite and `1e-320` subnormal, scales that make the size
        // in points 0 or infinite.
        guard let first = number.first, first.isNumber, let value = Double(number), value > 0, value.isNormal else { return 1 }
        return value
    }

    /// The size in points: pixels divided by the scale.
    public var size: (width: Double, height: Double) { (Double(pixelWidth) / scale, Double(pixelHeight) / scale) }

    /// Bytes one decoded canvas takes (RGBA8).
    public var bytesPerFrame: Int { pixelWidth * pixelHeight * 4 }

    /// Bytes all frames take decoded: `bytesPerFrame × frameCount` for animations, 0 for stills.
    public var memorySize: Int { frameCount > 1 ? bytesPerFrame * frameCount : 0 }

    /// The compositing canvas an animation's decoder keeps while it decodes frames in order.
    public var decodingScratchBytes: Int { frameCount > 1 && decoder?.compositesFrames == true ? bytesPerFrame : 0 }

    /// Whether every frame is decoded and kept.
    public var isPreloaded: Bool { preloaded.withLock { $0 != nil } }

    /// Decodes every frame now and keeps them (YYImage's `preloadAllAnimatedImageFrames`).
    public func preloadAllFrames() throws(ImageError) {
        guard !isPreloaded else { return }
        var frames = [firstFrame]
        for index in 1..<max(1, frameCount) { frames.append(try decodedFrame(at: index)) }
        preloaded.withLock { $0 = frames }
    }

    /// Releases preloaded frames (an image made from frames keeps them: it has nothing to
    /// decode them from again).
    public func unloadFrames() {
        guard decoder != nil else { return }
        preloaded.withLock { $0 = nil }
    }

    /// Frame `index`, composited at canvas size (from the preloaded frames when there are any).
    public func frame(at index: Int) throws(ImageError) -> Bitmap {
        if index == 0 { return firstFrame }
        if let frames = preloaded.withLock({ $0 }), index >= 0, index < frames.count { return frames[index] }
        return try decodedFrame(at: index)
    }

    private func decodedFrame(at index: Int) throws(ImageError) -> Bitmap {
        guard let decoder else { throw .frameOutOfRange(index: index, count: frameCount) }
        return try decoder.frame(at: index)
    }

    /// How long frame `index` shows, in seconds, with `durationRule` applied.
    public func duration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }
}

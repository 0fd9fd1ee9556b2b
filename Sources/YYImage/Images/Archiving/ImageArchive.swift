internal import Foundation

extension CodingUserInfoKey {
    /// The ``ImageDecoder/Options`` (limits above all) that archived images are decoded with:
    /// set it in a decoder's `userInfo`; absent, the defaults apply.
    public static let imageDecoderOptions = CodingUserInfoKey(rawValue: "YYImage.imageDecoderOptions")!
}

/// What the archived image types share: the options their bytes are decoded with, and frames
/// written losslessly when there are no original bytes to keep.
enum ImageArchive {
    /// The decoding options a `Decoder` carries, or the defaults.
    static func options(_ decoder: any Decoder) -> ImageDecoder.Options {
        decoder.userInfo[.imageDecoderOptions] as? ImageDecoder.Options ?? ImageDecoder.Options()
    }

    /// `frames` as one lossless file: PNG, or APNG for several (all the size of the first).
    static func losslessFile(_ frames: [Bitmap], durations: [Double] = [], loopCount: Int = 0) throws(ImageError) -> Data {
        var encoder = ImageEncoder(type: .png)
        encoder.alwaysWritesAlpha = true
        encoder.loopCount = loopCount
        for (index, frame) in frames.enumerated() {
            encoder.addFrame(frame, duration: durations.indices.contains(index) ? durations[index] : 0)
        }
        return try encoder.encode()
    }

    /// Every frame of `data`, decoded with `options`.
    static func frames(of data: Data, options: ImageDecoder.Options) throws(ImageError) -> [Bitmap] {
        let decoder = try ImageDecoder(data: data, options: options)
        return try (0..<decoder.frameCount).map { (index) throws(ImageError) in try decoder.frame(at: index) }
    }
}

#if LibJXL
internal import CJXL
internal import Foundation

/// Writes JPEG XL stills and animations with libjxl, 8 bits a sample, in sRGB or in the colour
/// of a given ICC profile.
enum JPEGXLWriter {
    /// libjxl's effort when `ImageEncoder.effort` is not set: 7, cjxl's default.
    static let defaultEffort = 7

    /// The Butteraugli distance for `quality` 0...1, by cjxl's mapping of its `-q` (quality 90
    /// is distance 1, "visually lossless").
    static func distance(quality: Double) -> Float {
        let q = min(100, max(0, quality * 100))
        if q >= 100 { return 0 }
        if q >= 30 { return Float(0.1 + (100 - q) * 0.09) }
        return Float(6.4 + pow(2.5, (30 - q) / 5) / 6.25)
    }

    /// The file of `frames` (one: a still; more: an animation with their durations, in ms,
    /// played `plays` times, 0 = forever), their colour that of `iccProfile` (an RGB profile)
    /// when one is given, asking `checkpoint` before each frame (libjxl cannot be stopped inside
    /// one: see ``LibJXL/runner``).
    static func write(
        _ frames: [(Bitmap, Double)], quality: Double, lossless: Bool, effort: Int, plays: Int, usesAllCores: Bool,
        iccProfile: [UInt8]? = nil, checkpoint: CodecCheckpoint? = nil
    ) throws(ImageError) -> [UInt8] {
        guard let encoder = JxlEncoderCreate(nil) else { throw .codec(.jpegXL, "libjxl could not start") }
        defer { JxlEncoderDestroy(encoder) }
        let width = frames[0].0.width, height = frames[0].0.height
        let withAlpha = frames.contains { !$0.0.isOpaque }
        let animated = frames.count > 1
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(width)
        info.ysize = UInt32(height)
        info.bits_per_sample = 8
        info.num_color_channels = 3
        info.num_extra_channels = withAlpha ? 1 : 0
        info.alpha_bits = withAlpha ? 8 : 0
        info.uses_original_profile = lossless ? 1 : 0
        if animated {
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: plays)
        }
        var color = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&color, 0)
        // One worker runs on the calling thread, as libjxl does without a runner.
        let settings = LibJXL.RunnerSettings(maximumWorkers: usesAllCores ? ProcessInfo.processInfo.activeProcessorCount : 1)
        defer { withExtendedLifetime(settings) {} }
        try check(
            JxlEncoderSetParallelRunner(encoder, LibJXL.runner, Unmanaged.passUnretained(settings).toOpaque()), "the parallel runner")
        try check(JxlEncoderSetBasicInfo(encoder, &info), "the image header")
        if let iccProfile, !iccProfile.isEmpty {
            try check(JxlEncoderSetICCProfile(encoder, iccProfile, iccProfile.count), "the colour profile")
        } else {
            try check(JxlEncoderSetColorEncoding(encoder, &color), "the colour encoding")
        }
        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else { throw .codec(.jpegXL, "libjxl refused the frame settings") }
        try check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort)), "the effort")
        if lossless {
            try check(JxlEncoderSetFrameLossless(settings, 1), "lossless mode")
        } else {
            try check(JxlEncoderSetFrameDistance(settings, distance(quality: quality)), "the distance")
        }
        let channels = withAlpha ? 4 : 3
        var format = LibJXL.format(channels: channels)
        for (bitmap, duration) in frames {
            try checkpoint?.check()
            if animated {
                var header = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(clamping: Int((duration * 1000).rounded()))
                try check(JxlEncoderSetFrameHeader(settings, &header), "a frame header")
            }
            let packed = packedPixels(bitmap, channels: channels)
            let added = packed.withUnsafeBytes { raw in JxlEncoderAddImageFrame(settings, &format, raw.baseAddress, raw.count) }
            try check(added, "a frame")
        }
        JxlEncoderCloseInput(encoder)
        try checkpoint?.check()
        var output = [UInt8](repeating: 0, count: max(4096, width * height / 2))
        var written = 0
        while true {
            var available = output.count - written
            let status = output.withUnsafeMutableBufferPointer { buffer in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.baseAddress!.distance(to: next!)
                return status
            }
            if status == JXL_ENC_NEED_MORE_OUTPUT {
                output.append(contentsOf: repeatElement(0, count: output.count))
            } else {
                try check(status, "the output")
                return Array(output[0..<written])
            }
        }
    }

    /// The bitmap's rows packed, with or without alpha.
    private static func packedPixels(_ bitmap: Bitmap, channels: Int) -> [UInt8] {
        if channels == 4, bitmap.bytesPerRow == bitmap.width * 4 { return bitmap.pixels }
        var packed = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * channels)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let from = y * bitmap.bytesPerRow + x * 4, to = (y * bitmap.width + x) * channels
                for channel in 0..<channels { packed[to + channel] = bitmap.pixels[from + channel] }
            }
        }
        return packed
    }

    private static func check(_ status: JxlEncoderStatus, _ what: String) throws(ImageError) {
        guard status != JXL_ENC_SUCCESS else { return }
        throw .codec(.jpegXL, "libjxl refused \(what) (status \(status.rawValue))")
    }
}
#endif

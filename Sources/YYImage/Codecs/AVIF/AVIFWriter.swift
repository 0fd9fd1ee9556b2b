#if LibAVIF
internal import CAVIF
internal import Foundation

/// Writes AVIF stills and image sequences with libavif on libaom (the encoder libavif picks
/// first as Debian builds it, asked for by name when present).
///
/// Lossy files are 8-bit 4:2:0 BT.601 full range, one quantizer for colour and alpha from the
/// quality; lossless files are 4:4:4 with the identity matrix and quantizer 0, so RGB comes
/// back exactly. The colour is sRGB (an `nclx` box) unless an ICC profile is given, which then
/// goes in a `colr` box of its own, as readers prefer it.
enum AVIFWriter {
    /// libavif's speed when `ImageEncoder.effort` is not set: 6, the speed avifenc uses (and the
    /// fastest a lossless encode runs at).
    static let defaultSpeed = 6

    /// The AV1 quantizer (0 best … 63 worst) for `quality` 0...1.
    static func quantizer(quality: Double) -> Int32 {
        Int32(((1 - min(1, max(0, quality))) * 63).rounded())
    }

    /// The file of `frames` (one: a still; more: a sequence with their durations, in ms), in the
    /// colour of `iccProfile` (an RGB profile) when one is given, asking `checkpoint` before each
    /// frame (libaom has no hook inside one).
    static func write(
        _ frames: [(Bitmap, Double)], quality: Double, lossless: Bool, speed: Int, usesAllCores: Bool, iccProfile: [UInt8]? = nil,
        checkpoint: CodecCheckpoint? = nil
    ) throws(ImageError) -> [UInt8] {
        guard let encoder = avifEncoderCreate() else { throw .codec(.avif, "libavif could not start") }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.maxThreads = usesAllCores ? Int32(min(8, ProcessInfo.processInfo.activeProcessorCount)) : 1
        // libaom (3.6) asserts in its rate control on lossless encodes at the speeds libavif runs
        // in real-time mode (a still at 10, a sequence from 7): lossless encodes stop at 6.
        encoder.pointee.speed = Int32(min(lossless ? 6 : 10, max(0, speed)))
        encoder.pointee.timescale = 1000
        turnOffIntraBlockCopy(encoder)
        let q = lossless ? 0 : quantizer(quality: quality)
        encoder.pointee.minQuantizer = q
        encoder.pointee.maxQuantizer = q
        encoder.pointee.minQuantizerAlpha = q
        encoder.pointee.maxQuantizerAlpha = q
        let withAlpha = frames.contains { !$0.0.isOpaque }
        for (bitmap, duration) in frames {
            try checkpoint?.check()
            let format = lossless ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
            guard let image = avifImageCreate(UInt32(bitmap.width), UInt32(bitmap.height), 8, format) else {
                throw .codec(.avif, "libavif could not allocate a frame")
            }
            defer { avifImageDestroy(image) }
            image.pointee.yuvRange = AVIF_RANGE_FULL
            image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
            image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
            image.pointee.matrixCoefficients = avifMatrixCoefficients(
                lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601)
            if let iccProfile, !iccProfile.isEmpty {
                // libavif copies the profile; it is written with the first frame.
                iccProfile.withUnsafeBufferPointer { avifImageSetProfileICC(image, $0.baseAddress, $0.count) }
            }
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.depth = 8
            rgb.ignoreAlpha = withAlpha ? 0 : 1
            rgb.rowBytes = UInt32(bitmap.bytesPerRow)
            let converted = bitmap.pixels.withUnsafeBufferPointer { pixels in
                rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress)
                return avifImageRGBToYUV(image, &rgb)
            }
            try check(converted, encoder, "a frame does not convert to YUV")
            let flags =
                frames.count == 1 ? avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue) : avifAddImageFlags(AVIF_ADD_IMAGE_FLAG_NONE.rawValue)
            let milliseconds = UInt64(max(1, (duration * 1000).rounded()))
            try check(avifEncoderAddImage(encoder, image, milliseconds, flags), encoder, "a frame does not encode")
        }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        try check(avifEncoderFinish(encoder, &output), encoder, "the file was not finished")
        return Array(UnsafeBufferPointer(start: output.data, count: output.size))
    }

    /// Asks libaom, when it is the encoder, not to search for intra block copies.
    ///
    /// libaom 3.6 takes smooth pictures of several megapixels (enlargements, renders) for screen
    /// content and turns intra block copy on, whose hash search then takes most of the time and
    /// about a hundred bytes a pixel, for no smaller file; photos at their own size and text on
    /// flat colour encode to the same bytes either way (measured: `Benchmarks/README.md`,
    /// "Measured design choices").
    private static func turnOffIntraBlockCopy(_ encoder: UnsafeMutablePointer<avifEncoder>) {
        // The option is libaom's, so it is given only with libaom chosen as the encoder.
        guard avifCodecName(AVIF_CODEC_CHOICE_AOM, avifCodecFlags(AVIF_CODEC_FLAG_CAN_ENCODE.rawValue)) != nil else { return }
        encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
        avifEncoderSetCodecSpecificOption(encoder, "enable-intrabc", "0")
    }

    private static func check(_ result: avifResult, _ encoder: UnsafeMutablePointer<avifEncoder>, _ what: String) throws(ImageError) {
        guard result != AVIF_RESULT_OK else { return }
        throw .codec(.avif, "\(what): \(String(cString: avifResultToString(result)))")
    }
}
#endif

internal import CWebP

/// Writes WebP through libwebp: `WebPEncode` for a still, `WebPAnimEncoder` for animations
/// (which picks sub-rectangles, blending and key frames itself).
enum WebPWriter {
    /// A still image; `quality` 0...100 (ignored, except as effort, when lossless), `method`
    /// libwebp's 0 (fast) ... 6 (small). libwebp's progress hook asks `checkpoint` as it goes.
    static func still(_ bitmap: Bitmap, quality: Double, lossless: Bool, method: Int = 4, checkpoint: CodecCheckpoint? = nil)
        throws(ImageError) -> [UInt8]
    {
        try checkSize(width: bitmap.width, height: bitmap.height)
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .codec(.webp, "libwebp version mismatch") }
        config.lossless = lossless ? 1 : 0
        config.quality = Float(quality)
        config.method = Int32(min(6, max(0, method)))
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .codec(.webp, "libwebp version mismatch") }
        picture.use_argb = lossless ? 1 : 0
        picture.width = Int32(bitmap.width)
        picture.height = Int32(bitmap.height)
        defer { WebPPictureFree(&picture) }
        let imported = bitmap.pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(bitmap.bytesPerRow)) }
        guard imported != 0 else { throw .codec(.webp, "WebPPictureImportRGBA failed for a \(bitmap.width)x\(bitmap.height) image") }
        if let checkpoint { install(checkpoint, in: &picture) }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        try withUnsafeMutablePointer(to: &writer) { (writerPointer: UnsafeMutablePointer<WebPMemoryWriter>) throws(ImageError) in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            guard WebPEncode(&config, &picture) != 0 else {
                throw .codec(.webp, "WebPEncode failed for a \(bitmap.width)x\(bitmap.height) image (error \(picture.error_code.rawValue))")
            }
        }
        return Array(UnsafeBufferPointer(start: writer.mem, count: writer.size))
    }

    /// Has libwebp's progress hook ask `checkpoint`, which must outlive the encode: a stop makes
    /// the encode fail (`VP8_ENC_ERROR_USER_ABORT`).
    private static func install(_ checkpoint: CodecCheckpoint, in picture: inout WebPPicture) {
        picture.user_data = Unmanaged.passUnretained(checkpoint).toOpaque()
        picture.progress_hook = { _, picture in
            guard let box = picture?.pointee.user_data else { return 1 }
            return Unmanaged<CodecCheckpoint>.fromOpaque(box).takeUnretainedValue().shouldStop() ? 0 : 1
        }
    }

    /// `webp` with a metadata chunk (`ICCP`, `EXIF` or `XMP `) set to `payload`.
    static func withChunk(_ fourCC: String, _ payload: [UInt8], _ webp: [UInt8]) throws(ImageError) -> [UInt8] {
        try withChunks([(fourCC, payload)], webp)
    }

    /// `webp` with metadata chunks (`ICCP`, `EXIF`, `XMP `) set, through libwebp's muxer (which
    /// also writes the VP8X header that announces them); `webp` itself when there are none.
    static func withChunks(_ chunks: [(fourCC: String, payload: [UInt8])], _ webp: [UInt8]) throws(ImageError) -> [UInt8] {
        guard !chunks.isEmpty else { return webp }
        return try webp.withUnsafeBufferPointer { (input: UnsafeBufferPointer<UInt8>) throws(ImageError) -> [UInt8] in
            var data = WebPData(bytes: input.baseAddress, size: input.count)
            guard let mux = WebPMuxCreateInternal(&data, 0, WEBP_MUX_ABI_VERSION) else { throw .codec(.webp, "the muxer rejected our own file") }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in chunks {
                let status = payload.withUnsafeBufferPointer { payloadBytes -> WebPMuxError in
                    var chunk = WebPData(bytes: payloadBytes.baseAddress, size: payloadBytes.count)
                    return WebPMuxSetChunk(mux, fourCC, &chunk, 1)
                }
                guard status == WEBP_MUX_OK else { throw .codec(.webp, "could not add the \(fourCC) chunk") }
            }
            var assembled = WebPData()
            WebPDataInit(&assembled)
            defer { WebPDataClear(&assembled) }
            guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else {
                throw .codec(.webp, "could not assemble the metadata chunks")
            }
            return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
        }
    }

    /// The longest side WebP stores (libwebp's `WEBP_MAX_DIMENSION`).
    static let maximumDimension = 16383

    /// Refuses, saying why, a size libwebp would refuse with no reason given.
    private static func checkSize(width: Int, height: Int) throws(ImageError) {
        guard width <= maximumDimension, height <= maximumDimension else {
            throw .invalidInput("WebP images are 1...\(maximumDimension) pixels a side, not \(width)x\(height)")
        }
    }

    /// The longest frame duration WebP stores, in milliseconds.
    static let longestFrameMilliseconds = Double(0xFF_FFFF)

    /// An animation of canvas-size frames, each shown for its duration, played `plays` times
    /// (0 = forever). `method` is libwebp's 0...6 per frame; `minimizeSize` tries both disposal
    /// methods for every frame (about twice the time, smaller files).
    static func animation(
        _ frames: [(pixels: Bitmap, duration: Double)], quality: Double, lossless: Bool, plays: Int,
        method: Int = 0, minimizeSize: Bool = false, checkpoint: CodecCheckpoint? = nil
    ) throws(ImageError) -> [UInt8] {
        guard let first = frames.first?.pixels else { throw .invalidInput("no frames") }
        try checkSize(width: first.width, height: first.height)
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw .codec(.webp, "libwebp version mismatch") }
        // The format stores the loop count in 16 bits; more plays than that is forever in practice.
        options.anim_params.loop_count = Int32(min(65535, max(0, plays)))
        options.minimize_size = minimizeSize ? 1 : 0
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw .codec(.webp, "WebPAnimEncoderNew failed for \(first.width)x\(first.height)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .codec(.webp, "libwebp version mismatch") }
        config.lossless = lossless ? 1 : 0
        config.quality = Float(quality)
        config.method = Int32(min(6, max(0, method)))
        var timestamp = 0
        for frame in frames {
            try checkpoint?.check()
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw .codec(.webp, "libwebp version mismatch") }
            picture.use_argb = 1
            picture.width = Int32(frame.pixels.width)
            picture.height = Int32(frame.pixels.height)
            let imported = frame.pixels.pixels.withUnsafeBufferPointer {
                WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(frame.pixels.bytesPerRow))
            }
            defer { WebPPictureFree(&picture) }
            guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
                throw .codec(.webp, String(cString: WebPAnimEncoderGetError(encoder)))
            }
            // A frame's duration is 24 bits of milliseconds in the format (4 h 39 min); longer
            // ones are cut to that, as the GIF and APNG writers cut to what theirs hold.
            timestamp += Int((min(Self.longestFrameMilliseconds, max(0, frame.duration * 1000))).rounded())
            guard timestamp <= Int(Int32.max) else {
                throw .invalidInput("the animation lasts longer than WebP can time (\(Int32.max / 86_400_000) days)")
            }
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw .codec(.webp, String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw .codec(.webp, String(cString: WebPAnimEncoderGetError(encoder)))
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }
}

internal import CWebP

/// A WebP file, still or animated, read with libwebp's demuxer; frames are decoded one at a
/// time with `WebPDecode` and composited by `FrameCompositor` (so random access does not need
/// libwebp's sequential animation decoder).
///
/// Blending is straight-alpha "over" (the container spec's rule); frames without alpha replace
/// their rectangle. Before the data is final, frame 0 is decoded once it has fully arrived.
struct WebPContainer: ImageContainer {
    let type = ImageType.webp
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount: Int
    let frames: [ImageFrameInfo]
    let orientation: ImageOrientation
    let colorProfile: [UInt8]?
    let exif: [UInt8]?
    let xmp: [UInt8]?
    private let bytes: [UInt8]
    /// Where each frame's ALPH + VP8/VP8L data lies.
    private let fragments: [Range<Int>]
    private let alphaFlags: [Bool]

    /// Parses `bytes` (`nil` when the header or frame 0 has not arrived yet).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        struct Parsed {
            var width = 0, height = 0, loops = 0
            var frames: [ImageFrameInfo] = []
            var fragments: [Range<Int>] = []
            var alpha: [Bool] = []
            var exif: [UInt8]?
            var icc: [UInt8]?
            var xmp: [UInt8]?
        }
        let parsed: Parsed? = bytes.withUnsafeBufferPointer { buffer -> Parsed? in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var state = WEBP_DEMUX_PARSING_HEADER
            guard let demux = WebPDemuxInternal(&data, 1, &state, WEBP_DEMUX_ABI_VERSION) else { return nil }
            defer { WebPDemuxDelete(demux) }
            var result = Parsed()
            result.width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
            result.height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            result.loops = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
            let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            let base = buffer.baseAddress!
            var iterator = WebPIterator()
            for number in 0..<count where WebPDemuxGetFrame(demux, Int32(number + 1), &iterator) != 0 {
                defer { WebPDemuxReleaseIterator(&iterator) }
                guard iterator.complete != 0, let start = iterator.fragment.bytes else { break }
                let offset = base.distance(to: start)
                result.fragments.append(offset..<(offset + iterator.fragment.size))
                result.alpha.append(iterator.has_alpha != 0)
                result.frames.append(
                    ImageFrameInfo(
                        x: Int(iterator.x_offset), y: Int(iterator.y_offset),
                        width: Int(iterator.width), height: Int(iterator.height),
                        duration: Double(iterator.duration) / 1000,
                        disposal: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none,
                        blend: iterator.blend_method == WEBP_MUX_BLEND ? .over : .source))
            }
            var chunk = WebPChunkIterator()
            if WebPDemuxGetChunk(demux, "EXIF", 1, &chunk) != 0 {
                result.exif = Array(UnsafeBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size))
                WebPDemuxReleaseChunkIterator(&chunk)
            }
            if WebPDemuxGetChunk(demux, "XMP ", 1, &chunk) != 0 {
                result.xmp = Array(UnsafeBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size))
                WebPDemuxReleaseChunkIterator(&chunk)
            }
            if WebPDemuxGetChunk(demux, "ICCP", 1, &chunk) != 0 {
                result.icc = Array(UnsafeBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size))
                WebPDemuxReleaseChunkIterator(&chunk)
            }
            return result
        }
        guard let parsed, parsed.width > 0, parsed.height > 0 else {
            if isFinal { throw bytes.count < 30 ? .truncated(.webp) : .malformed(.webp, "the demuxer rejected the RIFF structure") }
            return nil
        }
        try limits.check(width: parsed.width, height: parsed.height)
        guard !parsed.frames.isEmpty else {
            if isFinal { throw .truncated(.webp) }
            return nil
        }
        self.canvasWidth = parsed.width
        self.canvasHeight = parsed.height
        self.loopCount = parsed.loops
        // Before final only frame 0 is offered.
        self.frames = isFinal ? parsed.frames : [parsed.frames[0]]
        self.fragments = parsed.fragments
        self.alphaFlags = parsed.alpha
        self.orientation = parsed.exif.map { EXIF.orientation(inTIFF: $0) } ?? .up
        self.colorProfile = parsed.icc
        self.exif = parsed.exif
        self.xmp = parsed.xmp
        self.bytes = bytes
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { alphaFlags[index] }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        let frame = frames[index]
        let fragment = fragments[index]
        let denominator = ShrinkOnLoad.denominator(width: frame.width, height: frame.height, keeping: shrinkOnLoad, maxDenominator: 8)
        if frames.count == 1, denominator > 1 {
            // A still shrinks while decoding, through libwebp's own (area-averaging) rescaler, at
            // a power-of-two scale as JPEG does: the full-size pixels are never held.
            let width = ShrinkOnLoad.scaled(frame.width, by: denominator)
            let height = ShrinkOnLoad.scaled(frame.height, by: denominator)
            return try decodeScaled(fragment, width: width, height: height)
        }
        // WebPDecodeRGBAInto writes the whole frame or fails.
        return try Bitmap(uninitializedWidth: frame.width, height: frame.height) { (output, stride) throws(ImageError) in
            let decoded = bytes.withUnsafeBufferPointer { input in
                WebPDecodeRGBAInto(input.baseAddress! + fragment.lowerBound, fragment.count, output.baseAddress, output.count, Int32(stride))
            }
            guard decoded != nil else { throw .malformed(.webp, "frame \(index) does not decode") }
        }
    }

    /// The frame at `fragment` decoded straight to `width` × `height`.
    private func decodeScaled(_ fragment: Range<Int>, width: Int, height: Int) throws(ImageError) -> Bitmap {
        try Bitmap(uninitializedWidth: width, height: height) { (output, stride) throws(ImageError) in
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfigInternal(&config, WEBP_DECODER_ABI_VERSION) != 0 else {
                throw .codec(.webp, "libwebp version mismatch")
            }
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = output.baseAddress
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = output.count
            let status = bytes.withUnsafeBufferPointer { input in
                WebPDecode(input.baseAddress! + fragment.lowerBound, fragment.count, &config)
            }
            WebPFreeDecBuffer(&config.output)
            guard status == VP8_STATUS_OK else { throw .malformed(.webp, "the image does not decode (status \(status.rawValue))") }
        }
    }
}

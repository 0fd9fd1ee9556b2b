#if LibJXL
internal import CJXL
internal import Foundation

/// A JPEG XL file, bare codestream or container, still or animated, read with libjxl.
///
/// libjxl composites animation frames itself (coalescing), so every frame covers the canvas.
/// The orientation is reported, not applied (libjxl is told to keep the stored orientation),
/// like EXIF's in other formats.
///
/// Before the data is final the container exists once the basic header has arrived, and frame
/// 0 is what libjxl can show of what arrived (its progressive first pass, an upsampled 1:8
/// image, once the DC groups are in; the groups that arrived after that); transparent before.
struct JPEGXLContainer: ImageContainer {
    let type = ImageType.jpegXL
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount: Int
    let frames: [ImageFrameInfo]
    let orientation: ImageOrientation
    let colorProfile: [UInt8]?
    let bitDepth: Int
    private let hasAlpha: Bool
    private let session: Session

    /// One libjxl decoder over the file, kept so that frames decode one after another; a frame
    /// out of order rewinds it and skips ahead. Calls are serialised.
    final class Session: @unchecked Sendable {
        private let decoder: OpaquePointer
        private let input: PinnedBytes
        private let lock = NSLock()
        /// Every core, kept for the decoder's life: libjxl takes its runner once.
        private let runnerSettings = LibJXL.RunnerSettings(maximumWorkers: ProcessInfo.processInfo.activeProcessorCount)
        /// Whether the input is the whole file; libjxl is told so, or shows what it has.
        private let isFinal: Bool
        /// The frame the next full-image event delivers.
        private var nextFrame = 0

        init(_ bytes: [UInt8], isFinal: Bool) throws(ImageError) {
            guard let decoder = JxlDecoderCreate(nil) else { throw .codec(.jpegXL, "libjxl could not start") }
            self.decoder = decoder
            self.input = PinnedBytes(bytes)
            self.isFinal = isFinal
            let settings = Unmanaged.passUnretained(runnerSettings).toOpaque()
            guard JxlDecoderSetParallelRunner(decoder, LibJXL.runner, settings) == JXL_DEC_SUCCESS,
                JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS
            else { throw .codec(.jpegXL, "libjxl refused its settings") }
            try start()
        }

        deinit {
            JxlDecoderDestroy(decoder)
        }

        /// Points the decoder at the start of the file.
        private func start() throws(ImageError) {
            let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
            guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
                JxlDecoderSetInput(decoder, input.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), input.buffer.count) == JXL_DEC_SUCCESS
            else { throw .codec(.jpegXL, "libjxl refused the input") }
            if isFinal { JxlDecoderCloseInput(decoder) }
            nextFrame = 0
        }

        /// What the header says, and each frame's duration in ticks, read without decoding pixels.
        struct Header {
            var info = JxlBasicInfo()
            var profile: [UInt8]?
            var frameTicks: [UInt32] = []
        }

        /// Reads the header and walks the frames (libjxl skips their pixel data when no output
        /// buffer is set); in a partial file, up to the first frame. `nil` while a partial
        /// file's basic header has not arrived.
        func readHeader(limits: DecodeLimits) throws(ImageError) -> Header? {
            lock.lock()
            defer { lock.unlock() }
            var header = Header()
            while true {
                let status = JxlDecoderProcessInput(decoder)
                switch status {
                case JXL_DEC_BASIC_INFO:
                    guard JxlDecoderGetBasicInfo(decoder, &header.info) == JXL_DEC_SUCCESS else {
                        throw .malformed(.jpegXL, "the header does not read")
                    }
                    try limits.check(width: Int(header.info.xsize), height: Int(header.info.ysize))
                case JXL_DEC_COLOR_ENCODING:
                    preferSRGB()
                    header.profile = profile()
                case JXL_DEC_FRAME:
                    var frame = JxlFrameHeader()
                    guard JxlDecoderGetFrameHeader(decoder, &frame) == JXL_DEC_SUCCESS else {
                        throw .malformed(.jpegXL, "a frame header does not read")
                    }
                    header.frameTicks.append(frame.duration)
                    if !isFinal { return try rewound(header) }
                    guard header.frameTicks.count <= 65_536 else { throw .malformed(.jpegXL, "more than 65536 frames") }
                    JxlDecoderSkipCurrentFrame(decoder)
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    JxlDecoderSkipCurrentFrame(decoder)
                case JXL_DEC_SUCCESS:
                    return try rewound(header)
                case JXL_DEC_NEED_MORE_INPUT:
                    guard !isFinal else { throw .truncated(.jpegXL) }
                    return header.info.xsize > 0 ? try rewound(header) : nil
                default:
                    throw .malformed(.jpegXL, "the codestream does not decode (status \(status.rawValue))")
                }
            }
        }

        /// `header`, once the decoder is back at the start for the frames.
        private func rewound(_ header: Header) throws(ImageError) -> Header {
            JxlDecoderRewind(decoder)
            try start()
            return header
        }

        /// Asks for sRGB pixels where libjxl has the choice: a lossy (XYB) file whose original
        /// colour is an ICC profile, which it would otherwise give in linear sRGB. Files that keep
        /// their original colour (lossless ones) still decode in it.
        private func preferSRGB() {
            var info = JxlBasicInfo()
            let isGray = JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS && info.num_color_channels == 1
            var srgb = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&srgb, isGray ? 1 : 0)
            _ = JxlDecoderSetPreferredColorProfile(decoder, &srgb)
        }

        /// The ICC profile of the decoded pixels, when their colour is not one of JPEG XL's named
        /// encodings (those are sRGB or what a viewer already knows).
        private func profile() -> [UInt8]? {
            var encoding = JxlColorEncoding()
            if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS {
                return nil
            }
            var size = 0
            guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0 else { return nil }
            var profile = [UInt8](repeating: 0, count: size)
            guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size) == JXL_DEC_SUCCESS else { return nil }
            return profile
        }

        /// Frame `index`, `width` × `height` RGBA; of a partial file, what has arrived of it.
        func decode(frame index: Int, width: Int, height: Int) throws(ImageError) -> Bitmap {
            lock.lock()
            defer { lock.unlock() }
            if index != nextFrame {
                JxlDecoderRewind(decoder)
                try start()
            }
            guard isFinal else {
                // Zeroed: what libjxl cannot show yet stays transparent.
                var bitmap = Bitmap(width: width, height: height)
                try bitmap.pixels.withUnsafeMutableBufferPointer { (pixels: inout UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
                    try decode(frame: index, into: pixels)
                }
                return bitmap
            }
            return try Bitmap(uninitializedWidth: width, height: height) { (pixels, _) throws(ImageError) in
                try decode(frame: index, into: pixels)
            }
        }

        /// Runs the decoder until frame `index` is in `pixels` (RGBA rows without padding), or
        /// in a partial file until the input runs out, then flushes what it has.
        private func decode(frame index: Int, into pixels: UnsafeMutableBufferPointer<UInt8>) throws(ImageError) {
            var format = LibJXL.format(channels: 4)
            var skipped = index == nextFrame
            var hasBuffer = false
            while true {
                let status = JxlDecoderProcessInput(decoder)
                switch status {
                case JXL_DEC_BASIC_INFO, JXL_DEC_COLOR_ENCODING:
                    if status == JXL_DEC_COLOR_ENCODING { preferSRGB() }
                    if !skipped, status == JXL_DEC_BASIC_INFO {
                        JxlDecoderSkipFrames(decoder, index)
                        nextFrame = index
                        skipped = true
                    }
                case JXL_DEC_FRAME:
                    continue
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    var size = 0
                    guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS, size == pixels.count,
                        JxlDecoderSetImageOutBuffer(decoder, &format, pixels.baseAddress, size) == JXL_DEC_SUCCESS
                    else { throw .malformed(.jpegXL, "frame \(index) is not the canvas' size") }
                    hasBuffer = true
                case JXL_DEC_FULL_IMAGE:
                    nextFrame += 1
                    return
                case JXL_DEC_NEED_MORE_INPUT:
                    guard !isFinal else { throw .truncated(.jpegXL) }
                    // Fails harmlessly when nothing can be shown yet; the decoder is mid-frame.
                    if hasBuffer { _ = JxlDecoderFlushImage(decoder) }
                    nextFrame = -1
                    return
                case JXL_DEC_SUCCESS:
                    throw .frameOutOfRange(index: index, count: nextFrame)
                default:
                    nextFrame = -1  // rewind on the next call
                    throw .malformed(.jpegXL, "frame \(index) does not decode (status \(status.rawValue))")
                }
            }
        }
    }

    /// Parses the header and the frame list; `nil` while a partial file's header has not
    /// arrived. A partial file has one frame: the first.
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard bytes.count >= 2 else {
            if isFinal { throw .truncated(.jpegXL) }
            return nil
        }
        let session = try Session(bytes, isFinal: isFinal)
        guard var header = try session.readHeader(limits: limits) else { return nil }
        let info = header.info
        if !isFinal, header.frameTicks.isEmpty { header.frameTicks = [0] }
        guard info.xsize > 0, info.ysize > 0, !header.frameTicks.isEmpty else { throw .malformed(.jpegXL, "no frame") }
        canvasWidth = Int(info.xsize)
        canvasHeight = Int(info.ysize)
        let animated = info.have_animation != 0 && info.animation.tps_numerator > 0
        let secondsPerTick = animated ? Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator) : 0
        frames = header.frameTicks.map {
            ImageFrameInfo(width: Int(info.xsize), height: Int(info.ysize), duration: Double($0) * secondsPerTick)
        }
        loopCount = animated ? Int(info.animation.num_loops) : 0
        orientation = ImageOrientation(rawValue: Int(info.orientation.rawValue)) ?? .up
        colorProfile = header.profile
        hasAlpha = info.alpha_bits > 0
        bitDepth = Int(info.bits_per_sample)
        self.session = session
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { hasAlpha }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        try session.decode(frame: index, width: canvasWidth, height: canvasHeight)
    }
}
#endif

#if LibAVIF
internal import CAVIF
internal import Foundation

/// An AVIF file, a still or an image sequence, read with libavif (which picks dav1d).
///
/// The clean aperture (`clap`) crops each frame here; rotation and mirroring (`irot`, `imir`)
/// become the container's orientation, applied by the decoder like EXIF's (or kept with
/// `appliesOrientation = false`). Depths above 8 bits come out rounded to 8. Sequence frames
/// each cover the canvas.
///
/// Before the data is final the container exists once the header has arrived, and frame 0 is
/// decoded incrementally: the grid cells (or, for a plain image, the whole frame) that have
/// arrived, with the rest transparent. libavif decodes nothing smaller than a cell.
struct AVIFContainer: ImageContainer {
    let type = ImageType.avif
    let canvasWidth: Int
    let canvasHeight: Int
    /// libavif 0.11 reads no loop count from a sequence; 0, "forever", is what browsers play.
    let loopCount = 0
    let frames: [ImageFrameInfo]
    let orientation: ImageOrientation
    let colorProfile: [UInt8]?
    let exif: [UInt8]?
    let xmp: [UInt8]?
    let bitDepth: Int
    private let session: Session
    private let crop: PixelRect?
    private let hasAlpha: Bool

    /// One libavif decoder over the file, kept for the container's life so that a sequence is
    /// decoded frame after frame rather than parsed again for each; calls are serialised.
    final class Session: @unchecked Sendable {
        let decoder: UnsafeMutablePointer<avifDecoder>
        let isFinal: Bool
        private let input: PinnedBytes
        /// The reader libavif calls; `data` points at `source`.
        private let io: UnsafeMutablePointer<avifIO>
        private let source: UnsafeMutablePointer<Source>
        let lock = NSLock()

        /// What the reader serves: the bytes so far, and whether more may come.
        struct Source {
            var bytes: UnsafeRawBufferPointer
            var isFinal: Bool
        }

        /// Starts a decoder on `bytes` and parses the header. With data that is not final, a
        /// header that has not fully arrived returns `nil`.
        init?(_ bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
            guard let decoder = avifDecoderCreate() else { throw .codec(.avif, "libavif could not start") }
            self.decoder = decoder
            self.isFinal = isFinal
            input = PinnedBytes(bytes)
            source = .allocate(capacity: 1)
            source.initialize(to: Source(bytes: input.buffer, isFinal: isFinal))
            io = .allocate(capacity: 1)
            io.initialize(to: avifIO())
            io.pointee.read = Self.read
            // libavif bounds what it allocates for items by the hint. A stream's final size is
            // unknown: a partial file gets 64 MiB, and one that needs more waits for its end
            // (a partial file that does not parse is not an error yet).
            io.pointee.sizeHint = UInt64(isFinal ? bytes.count : max(bytes.count, 64 << 20))
            io.pointee.persistent = 1
            io.pointee.data = UnsafeMutableRawPointer(source)
            decoder.pointee.maxThreads = Int32(min(8, ProcessInfo.processInfo.activeProcessorCount))
            // libavif's own ceiling stays at least its default: parsing allocates no pixels, so
            // the decoder's check after it can report the size (a typed `tooManyPixels`).
            decoder.pointee.imageSizeLimit = UInt32(clamping: max(limits.maxPixelCount, 16384 * 16384))
            decoder.pointee.imageCountLimit = 65_536
            // Real files break the letter of the spec (a missing `pixi`, odd `clap`s) and every
            // browser shows them: only the checks that keep memory safe stay on.
            decoder.pointee.strictFlags = avifStrictFlags(AVIF_STRICT_DISABLED.rawValue)
            // Encoders often put Exif and XMP at the end; a partial file's header need not wait.
            decoder.pointee.ignoreExif = isFinal ? 0 : 1
            decoder.pointee.ignoreXMP = isFinal ? 0 : 1
            decoder.pointee.allowIncremental = isFinal ? 0 : 1
            avifDecoderSetIO(decoder, io)
            let parsed = avifDecoderParse(decoder)
            // A partial file's errors wait for the final data, which tells truncation apart.
            if !isFinal, parsed != AVIF_RESULT_OK { return nil }
            try check(parsed, "the file does not parse")
        }

        /// libavif's reader over `Source`: what has arrived, "waiting" past it while more may
        /// come, and the rules of `avifIOReadFunc` at the end of a final file.
        private static let read: avifIOReadFunc = { io, _, offset, size, out in
            guard let io, let out, let source = io.pointee.data?.assumingMemoryBound(to: Source.self).pointee else {
                return AVIF_RESULT_IO_ERROR
            }
            let count = UInt64(source.bytes.count)
            guard offset <= count else { return source.isFinal ? AVIF_RESULT_IO_ERROR : AVIF_RESULT_WAITING_ON_IO }
            let available = Int(count - offset)
            if !source.isFinal, size > available { return AVIF_RESULT_WAITING_ON_IO }
            out.pointee.data = source.bytes.baseAddress.map { $0.advanced(by: Int(offset)).assumingMemoryBound(to: UInt8.self) }
            out.pointee.size = min(size, available)
            return AVIF_RESULT_OK
        }

        deinit {
            // The decoder does not own the reader (no `destroy`), so it goes after.
            avifDecoderDestroy(decoder)
            io.deallocate()
            source.deallocate()
        }

        /// Throws a typed error for a libavif failure.
        func check(_ result: avifResult, _ what: String) throws(ImageError) {
            guard result != AVIF_RESULT_OK else { return }
            let reason = String(cString: avifResultToString(result))
            let detail = withUnsafeBytes(of: decoder.pointee.diag.error) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let text = "\(what): \(reason)\(detail.isEmpty ? "" : " (\(detail))")"
            switch result {
            case AVIF_RESULT_TRUNCATED_DATA: throw .truncated(.avif)
            case AVIF_RESULT_NOT_IMPLEMENTED, AVIF_RESULT_NO_CODEC_AVAILABLE: throw .unsupportedFeature(.avif, text)
            default: throw .malformed(.avif, text)
            }
        }
    }

    /// Parses the file; `nil` while a partial file's header has not arrived.
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard bytes.count >= 16 else {
            if isFinal { throw .truncated(.avif) }
            return nil
        }
        guard let session = try Session(bytes, isFinal: isFinal, limits: limits) else { return nil }
        let decoder = session.decoder.pointee
        guard let image = decoder.image?.pointee else { throw .malformed(.avif, "no image") }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0 else { throw .malformed(.avif, "an image of \(width)x\(height) pixels") }
        try limits.check(width: width, height: height)
        let crop = image.transformFlags & UInt32(AVIF_TRANSFORM_CLAP.rawValue) != 0 ? Self.cleanAperture(of: image) : nil
        self.crop = crop
        canvasWidth = crop?.width ?? width
        canvasHeight = crop?.height ?? height
        var frames: [ImageFrameInfo] = []
        for index in 0..<(isFinal ? Int(max(1, decoder.imageCount)) : 1) {
            var timing = avifImageTiming()
            let duration = avifDecoderNthImageTiming(session.decoder, UInt32(index), &timing) == AVIF_RESULT_OK ? timing.duration : 0
            frames.append(ImageFrameInfo(width: canvasWidth, height: canvasHeight, duration: duration))
        }
        self.frames = frames
        orientation = Self.orientation(of: image)
        colorProfile = Self.bytes(of: image.icc)
        exif = Self.bytes(of: image.exif)
        xmp = Self.bytes(of: image.xmp)
        bitDepth = Int(image.depth)
        hasAlpha = decoder.alphaPresent != 0
        self.session = session
    }

    /// The EXIF orientation that `irot` (anticlockwise quarter turns) then `imir` describe.
    static func orientation(of image: avifImage) -> ImageOrientation {
        let turns = image.transformFlags & UInt32(AVIF_TRANSFORM_IROT.rawValue) != 0 ? Int(image.irot.angle & 3) : 0
        let mirrored = image.transformFlags & UInt32(AVIF_TRANSFORM_IMIR.rawValue) != 0
        // Rows: no mirror, left-right mirror (mode 1), top-bottom mirror (mode 0); columns: turns.
        let table: [[ImageOrientation]] = [
            [.up, .left, .down, .right],
            [.upMirrored, .rightMirrored, .downMirrored, .leftMirrored],
            [.downMirrored, .leftMirrored, .upMirrored, .rightMirrored],
        ]
        return table[mirrored ? (image.imir.mode == 1 ? 1 : 2) : 0][turns]
    }

    /// The rectangle a clean-aperture box keeps, by the HEIF rule (its centre offset from the
    /// image's centre, all as fractions), whole pixels; `nil` for a box that is empty, does not
    /// fit or keeps everything. libavif's own conversion refuses odd offsets on subsampled
    /// images, which real files have and browsers crop.
    static func cleanAperture(of image: avifImage) -> PixelRect? {
        let box = image.clap
        guard box.widthD > 0, box.heightD > 0, box.horizOffD > 0, box.vertOffD > 0 else { return nil }
        let width = Double(box.widthN) / Double(box.widthD), height = Double(box.heightN) / Double(box.heightD)
        let x = Double(Int32(bitPattern: box.horizOffN)) / Double(box.horizOffD) + (Double(image.width) - width) / 2
        let y = Double(Int32(bitPattern: box.vertOffN)) / Double(box.vertOffD) + (Double(image.height) - height) / 2
        let rect = PixelRect(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)), width: Int(width.rounded(.down)), height: Int(height.rounded(.down)))
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
            rect.x + rect.width <= Int(image.width), rect.y + rect.height <= Int(image.height),
            rect.width < Int(image.width) || rect.height < Int(image.height)
        else { return nil }
        return rect
    }

    private static func bytes(of data: avifRWData) -> [UInt8]? {
        guard data.size > 0, let pointer = data.data else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: data.size))
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { hasAlpha }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        session.lock.lock()
        defer { session.lock.unlock() }
        let result = avifDecoderNthImage(session.decoder, UInt32(index))
        let rows: Int
        if result == AVIF_RESULT_WAITING_ON_IO, !session.isFinal {
            rows = Int(avifDecoderDecodedRowCount(session.decoder))
        } else {
            try session.check(result, "frame \(index) does not decode")
            rows = Int(session.decoder.pointee.image?.pointee.height ?? 0)
        }
        guard let image = session.decoder.pointee.image else { throw .malformed(.avif, "frame \(index) has no image") }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        var bitmap: Bitmap
        if rows >= height {
            bitmap = try Bitmap(uninitializedWidth: width, height: height) { (pixels, stride) throws(ImageError) in
                try convert(image, into: pixels.baseAddress, stride: stride, frame: index)
            }
        } else {
            bitmap = Bitmap(width: width, height: height)
            if rows > 0 {
                // The rows decoded so far, converted through a view of the image's top.
                var top = avifImage()
                var rect = avifCropRect(x: 0, y: 0, width: UInt32(width), height: UInt32(rows))
                try session.check(avifImageSetViewRect(&top, image, &rect), "frame \(index)'s decoded rows")
                try bitmap.pixels.withUnsafeMutableBufferPointer { (pixels: inout UnsafeMutableBufferPointer<UInt8>) throws(ImageError) in
                    try convert(&top, into: pixels.baseAddress, stride: width * 4, frame: index)
                }
            }
        }
        if let crop, crop.x + crop.width <= width, crop.y + crop.height <= height {
            bitmap = bitmap.cropped(to: crop)
        }
        return bitmap
    }

    /// Converts `image` to 8-bit RGBA rows of `stride` bytes at `pixels`.
    private func convert(_ image: UnsafeMutablePointer<avifImage>, into pixels: UnsafeMutablePointer<UInt8>?, stride: Int, frame index: Int)
        throws(ImageError)
    {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.pixels = pixels
        rgb.rowBytes = UInt32(stride)
        try session.check(avifImageYUVToRGB(image, &rgb), "frame \(index) does not convert to RGB")
    }
}
#endif

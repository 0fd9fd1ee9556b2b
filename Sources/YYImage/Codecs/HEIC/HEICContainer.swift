#if LibHEIF
internal import CHEIF
internal import Foundation

/// A HEIC (or other HEIF) file's primary image, or its first embedded thumbnail, read with libheif.
///
/// libheif applies the clean aperture, rotation and mirroring itself, so the pixels come out
/// upright and the orientation reported is `.up` (an EXIF orientation inside a HEIF file is
/// overridden by those properties, as browsers and Apple's decoders treat it). Depths above 8
/// bits come out as 8.
struct HEICContainer: ImageContainer {
    let type = ImageType.heic
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    let colorProfile: [UInt8]?
    let exif: [UInt8]?
    let bitDepth: Int
    private let session: Session
    private let hasAlpha: Bool

    /// A libheif context and the handle of the image decoded (the primary image or its first
    /// thumbnail), freed together; calls are serialised.
    final class Session: @unchecked Sendable {
        let context: OpaquePointer
        let handle: OpaquePointer
        let lock = NSLock()

        init(_ bytes: [UInt8], limits: DecodeLimits, usesThumbnail: Bool) throws(ImageError) {
            guard let context = heif_context_alloc() else { throw .codec(.heic, "libheif could not start") }
            heif_context_set_maximum_image_size_limit(context, Int32(clamping: limits.maxPixelCount))
            let read = bytes.withUnsafeBytes { heif_context_read_from_memory(context, $0.baseAddress, $0.count, nil) }
            var handle: OpaquePointer?
            let primary = read.code == heif_error_Ok ? heif_context_get_primary_image_handle(context, &handle) : read
            guard primary.code == heif_error_Ok, let handle else {
                // The message lives in the context: read it before the context goes.
                let error = Self.error(primary, "the file does not parse")
                heif_context_free(context)
                throw error
            }
            self.context = context
            self.handle = usesThumbnail ? Self.thumbnail(of: handle) ?? handle : handle
            if self.handle != handle { heif_image_handle_release(handle) }
        }

        /// The handle of the first thumbnail of `primary`, `nil` when there is none.
        private static func thumbnail(of primary: OpaquePointer) -> OpaquePointer? {
            var id = heif_item_id()
            guard heif_image_handle_get_number_of_thumbnails(primary) > 0,
                heif_image_handle_get_list_of_thumbnail_IDs(primary, &id, 1) == 1
            else { return nil }
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok else { return nil }
            return thumbnail
        }

        deinit {
            heif_image_handle_release(handle)
            heif_context_free(context)
        }

        /// The typed error for a libheif failure.
        static func error(_ error: heif_error, _ what: String) -> ImageError {
            let text = "\(what): \(error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")"
            switch error.code {
            case heif_error_Unsupported_feature, heif_error_Unsupported_filetype: return .unsupportedFeature(.heic, text)
            case heif_error_Memory_allocation_error: return .codec(.heic, text)
            default: return .malformed(.heic, text)
            }
        }
    }

    /// Parses the file once the data is final.
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits, usesThumbnail: Bool = false) throws(ImageError) {
        guard isFinal else { return nil }
        guard bytes.count >= 16 else { throw .truncated(.heic) }
        let session = try Session(bytes, limits: limits, usesThumbnail: usesThumbnail)
        let width = Int(heif_image_handle_get_width(session.handle)), height = Int(heif_image_handle_get_height(session.handle))
        guard width > 0, height > 0 else { throw .malformed(.heic, "an image of \(width)x\(height) pixels") }
        try limits.check(width: width, height: height)
        canvasWidth = width
        canvasHeight = height
        frames = [ImageFrameInfo(width: width, height: height)]
        hasAlpha = heif_image_handle_has_alpha_channel(session.handle) != 0
        // -1 when the file does not say (no `pixi` property): libheif then decodes 8-bit.
        bitDepth = max(8, Int(heif_image_handle_get_luma_bits_per_pixel(session.handle)))
        let profileSize = heif_image_handle_get_raw_color_profile_size(session.handle)
        if profileSize > 0 {
            var profile = [UInt8](repeating: 0, count: profileSize)
            colorProfile = heif_image_handle_get_raw_color_profile(session.handle, &profile).code == heif_error_Ok ? profile : nil
        } else {
            colorProfile = nil
        }
        exif = Self.exif(of: session.handle)
        self.session = session
    }

    /// The first EXIF block's TIFF structure (HEIF prefixes it with the offset of its header).
    private static func exif(of handle: OpaquePointer) -> [UInt8]? {
        var id = heif_item_id()
        guard heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return nil }
        let size = heif_image_handle_get_metadata_size(handle, id)
        guard size > 4 else { return nil }
        var block = [UInt8](repeating: 0, count: size)
        guard heif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok else { return nil }
        let offset = 4 + (Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3]))
        return offset < block.count ? Array(block[offset...]) : nil
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { hasAlpha }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        session.lock.lock()
        defer { session.lock.unlock() }
        guard let options = heif_decoding_options_alloc() else { throw .codec(.heic, "out of memory") }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        let decoded = heif_decode_image(session.handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options)
        guard decoded.code == heif_error_Ok, let image else { throw Session.error(decoded, "the image does not decode") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            Int(stride) >= width * 4
        else { throw .malformed(.heic, "the decoded image has no RGBA plane") }
        return try Bitmap(uninitializedWidth: width, height: height) { (pixels, rowBytes) throws(ImageError) in
            for y in 0..<height {
                (pixels.baseAddress! + y * rowBytes).update(from: plane + y * Int(stride), count: width * 4)
            }
        }
    }
}
#endif

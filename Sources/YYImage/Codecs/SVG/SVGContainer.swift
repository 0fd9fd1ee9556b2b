#if LibRSVG
internal import CRSVG
internal import Foundation

/// An SVG document, drawn with librsvg and cairo at a multiple of its intrinsic size.
///
/// The document is read from memory with no base file or URL, so librsvg loads no external
/// resource: only `data:` URLs and references inside the document resolve (librsvg refuses
/// everything else when it has no base to resolve against). librsvg's own XML limits stay on
/// (no `RSVG_HANDLE_FLAG_UNLIMITED`): entity expansion, nesting depth and the count of elements
/// and references are bounded. The canvas is the intrinsic size (its `width` and `height` in
/// pixels at 96 dpi, else the `viewBox`'s size, else 300 × 150 as browsers give a replaced
/// element with no size) times the scale, checked against the pixel limit before anything is
/// drawn.
struct SVGContainer: ImageContainer {
    let type = ImageType.svg
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    private let document: Document

    /// A librsvg handle, freed with the container; calls are serialised (a handle is not
    /// thread-safe).
    final class Document: @unchecked Sendable {
        let handle: OpaquePointer
        let lock = NSLock()

        init(_ bytes: [UInt8], stylesheet: String?) throws(ImageError) {
            var error: UnsafeMutablePointer<GError>?
            let handle = bytes.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, $0.count, &error) }
            guard let handle else { throw Self.error(error, "the document does not parse") }
            self.handle = handle
            rsvg_handle_set_dpi(handle, 96)
            if let stylesheet {
                let set = stylesheet.utf8CString.withUnsafeBufferPointer { css in
                    css.withMemoryRebound(to: UInt8.self) { rsvg_handle_set_stylesheet(handle, $0.baseAddress, $0.count - 1, &error) }
                }
                guard set != 0 else { throw Self.error(error, "the style sheet does not parse") }
            }
        }

        deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

        /// The typed error for a librsvg failure, freeing `error`.
        static func error(_ error: UnsafeMutablePointer<GError>?, _ what: String) -> ImageError {
            defer { if let error { g_error_free(error) } }
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "librsvg gave no reason"
            return .malformed(.svg, "\(what): \(message)")
        }
    }

    /// Parses the document once the data is final, for drawing at `scale` times its size with
    /// `stylesheet` (CSS) applied over its own styles.
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits, scale: Double, stylesheet: String?) throws(ImageError) {
        guard isFinal else { return nil }
        guard scale.isFinite, scale > 0 else { throw .invalidParameter(name: "scale", "\(scale): give a positive number") }
        let document = try Document(bytes, stylesheet: stylesheet)
        let size = Self.intrinsicSize(of: document)
        let (width, height) = (size.width * scale, size.height * scale)
        // Sizes past Int's range count as over the limit, which they are.
        guard width < 1e15, height < 1e15 else { throw .tooManyPixels(width: .max, height: .max, limit: limits.maxPixelCount) }
        canvasWidth = max(1, Int(width.rounded()))
        canvasHeight = max(1, Int(height.rounded()))
        try limits.check(width: canvasWidth, height: canvasHeight)
        frames = [ImageFrameInfo(width: canvasWidth, height: canvasHeight)]
        self.document = document
    }

    /// The document's size in pixels at 96 dpi: its `width` and `height` when they are absolute
    /// (rounded up, as librsvg advises, so no partly covered pixel is cut), else its `viewBox`,
    /// else 300 × 150.
    private static func intrinsicSize(of document: Document) -> (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(document.handle, &width, &height) != 0, width > 0, height > 0 {
            // A hair over a whole number is the whole number: float noise, not a partial pixel.
            return ((width - 1e-6).rounded(.up), (height - 1e-6).rounded(.up))
        }
        var hasViewBox: Int32 = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(document.handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        if hasViewBox != 0, viewBox.width > 0, viewBox.height > 0, viewBox.width.isFinite, viewBox.height.isFinite {
            return (viewBox.width, viewBox.height)
        }
        return (300, 150)
    }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        guard index == 0 else { throw .frameOutOfRange(index: index, count: 1) }
        let (width, height) = (canvasWidth, canvasHeight)
        var bitmap = try Bitmap(uninitializedWidth: width, height: height) { (pixels, rowBytes) throws(ImageError) in
            // cairo draws over what is there.
            pixels.initialize(repeating: 0)
            try draw(into: pixels.baseAddress!, width: width, height: height, rowBytes: rowBytes)
        }
        bitmap.alphaMode = .premultiplied
        return bitmap
    }

    /// Draws the document to fill `width` × `height` (keeping its aspect ratio, as its
    /// `preserveAspectRatio` says) into cleared memory, then turns cairo's pixels (premultiplied
    /// ARGB in native-endian 32-bit words: B, G, R, A in memory here) into RGBA.
    private func draw(into pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, rowBytes: Int) throws(ImageError) {
        document.lock.lock()
        defer { document.lock.unlock() }
        guard let surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(rowBytes))
        else { throw .codec(.svg, "cairo could not make a surface") }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { throw .codec(.svg, "cairo could not start") }
        defer { cairo_destroy(cairo) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(document.handle, cairo, &viewport, &error) != 0 else {
            throw Document.error(error, "the document does not draw")
        }
        cairo_surface_flush(surface)
        guard cairo_status(cairo) == CAIRO_STATUS_SUCCESS else { throw .codec(.svg, "cairo failed while drawing") }
        for y in 0..<height {
            let row = pixels + y * rowBytes
            for x in 0..<width {
                let p = row + x * 4
                let argb = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
                p[0] = UInt8(truncatingIfNeeded: argb >> 16)
                p[1] = UInt8(truncatingIfNeeded: argb >> 8)
                p[2] = UInt8(truncatingIfNeeded: argb)
                p[3] = UInt8(truncatingIfNeeded: argb >> 24)
            }
        }
    }
}
#endif

#if LibTIFF
internal import CTIFF

/// A TIFF file read with libtiff: every directory is a page (not an animation frame); page 0
/// is the image.
///
/// Pixels come through libtiff's RGBA interface, which reads strips and tiles of every
/// photometric interpretation (gray, palette, RGB, CMYK, YCbCr), 1 to 16 bits a sample, and
/// every compression libtiff was built with; alpha comes from it associated (premultiplied), and
/// the bitmap says so. The orientation tag is reported, not applied, like EXIF's.
struct TIFFContainer: ImageContainer {
    let type = ImageType.tiff
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    let orientation: ImageOrientation
    let colorProfile: [UInt8]?
    let xmp: [UInt8]?
    let pageCount: Int
    let bitDepth: Int
    private let bytes: [UInt8]
    private let limits: DecodeLimits

    /// The most directories read: a file with more is refused rather than walked (libtiff finds
    /// IFD loops itself).
    static let maxPageCount = 65_535

    /// Parses `bytes` once they are final (TIFF's directory may sit at the end of the file).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard isFinal else { return nil }
        guard bytes.count >= 8 else { throw .truncated(.tiff) }
        let file = try LibTIFF(MemoryStream(bytes), mode: "r", maxAllocation: Self.maxAllocation(limits))
        let count = Int(TIFFNumberOfDirectories(file.tiff))
        guard count > 0 else { throw .malformed(.tiff, file.error("no image directory")) }
        guard count <= Self.maxPageCount else { throw .malformed(.tiff, "\(count) pages (the most read is \(Self.maxPageCount))") }
        guard TIFFSetDirectory(file.tiff, 0) == 1 else { throw .malformed(.tiff, file.error("directory 0 is unreadable")) }
        let (width, height) = try Self.size(of: file)
        try limits.check(width: width, height: height)
        self.canvasWidth = width
        self.canvasHeight = height
        self.frames = [ImageFrameInfo(width: width, height: height)]
        let tag = file.field(TIFFTAG_ORIENTATION, as: UInt16.self) ?? 1
        self.orientation = ImageOrientation(rawValue: Int(tag)) ?? .up
        self.colorProfile = file.bytesField(TIFFTAG_ICCPROFILE)
        self.xmp = file.bytesField(TIFFTAG_XMLPACKET)
        // BitsPerSample is 1 when absent (TIFF 6.0, section 8); a palette's is its index width.
        let isPalette = file.field(TIFFTAG_PHOTOMETRIC, as: UInt16.self) == UInt16(PHOTOMETRIC_PALETTE)
        self.bitDepth = isPalette ? 8 : Int(file.field(TIFFTAG_BITSPERSAMPLE, as: UInt16.self) ?? 1)
        self.pageCount = count
        self.bytes = bytes
        self.limits = limits
    }

    /// The size of the current directory.
    private static func size(of file: LibTIFF) throws(ImageError) -> (Int, Int) {
        guard let width = file.field(TIFFTAG_IMAGEWIDTH, as: UInt32.self),
            let height = file.field(TIFFTAG_IMAGELENGTH, as: UInt32.self)
        else { throw .malformed(.tiff, "a directory without ImageWidth or ImageLength") }
        guard width > 0, height > 0 else { throw .malformed(.tiff, "an image of \(width)x\(height) pixels") }
        return (Int(width), Int(height))
    }

    /// The largest buffer libtiff may allocate for itself: a whole image of the largest size the
    /// limits allow at 16-bit RGBA (some writers put the image in one strip), at least 64 MiB and
    /// at most 1 GiB.
    private static func maxAllocation(_ limits: DecodeLimits) -> Int {
        let (wholeImage, overflow) = limits.maxPixelCount.multipliedReportingOverflow(by: 8)
        return min(1 << 30, max(64 << 20, overflow ? Int.max : wholeImage))
    }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        try decodePage(at: 0)
    }

    /// Page `index`, through a libtiff handle of its own: no handle is shared between calls, so
    /// pages decode on any thread without a lock, at the cost of reading the directories again.
    func decodePage(at index: Int) throws(ImageError) -> Bitmap {
        guard index >= 0, index < pageCount else { throw .frameOutOfRange(index: index, count: pageCount) }
        let file = try LibTIFF(MemoryStream(bytes), mode: "r", maxAllocation: Self.maxAllocation(limits))
        guard TIFFSetDirectory(file.tiff, UInt32(index)) == 1 else { throw .malformed(.tiff, file.error("page \(index) is unreadable")) }
        let (width, height) = try Self.size(of: file)
        try limits.check(width: width, height: height)
        var message = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(file.tiff, &message) == 1 else {
            throw .unsupportedFeature(.tiff, LibTIFF.string(message))
        }
        var hasAlpha = false
        var bitmap = try Bitmap(uninitializedWidth: width, height: height) { (pixels, _) throws(ImageError) in
            var image = TIFFRGBAImage()
            guard TIFFRGBAImageBegin(&image, file.tiff, 1, &message) == 1 else {
                throw .malformed(.tiff, LibTIFF.string(message))
            }
            defer { TIFFRGBAImageEnd(&image) }
            hasAlpha = image.alpha != 0
            // Rows in stored order: the orientation tag is the decoder's to apply, as EXIF's is.
            image.req_orientation = image.orientation
            // Each pixel is a uint32 A<<24 | B<<16 | G<<8 | R, which little-endian memory holds
            // as R, G, B, A: the bitmap's layout.
            let ok = pixels.withMemoryRebound(to: UInt32.self) { raster in
                TIFFRGBAImageGet(&image, raster.baseAddress, UInt32(width), UInt32(height))
            }
            guard ok == 1 else { throw .malformed(.tiff, file.error("page \(index) does not decode")) }
        }
        #if _endian(big)
        bitmap.swapRGBAWords()
        #endif
        // libtiff premultiplies alpha (associated or not); the decoder converts to the mode its
        // caller asked for, so premultiplied output keeps libtiff's values exactly.
        if hasAlpha { bitmap.alphaMode = .premultiplied }
        return bitmap
    }
}

#if _endian(big)
extension Bitmap {
    /// Reverses the bytes of each pixel (libtiff's packed words on a big-endian machine).
    fileprivate mutating func swapRGBAWords() {
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            pixels.swapAt(offset, offset + 3)
            pixels.swapAt(offset + 1, offset + 2)
        }
    }
}
#endif
#endif

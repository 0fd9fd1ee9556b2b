/// A JPEG file (baseline or progressive), decoded by libjpeg-turbo.
///
/// Before the data is final the prefix that arrived is decoded: a baseline file shows its top
/// rows, a progressive one its coarser scans. Decoding to a smaller size uses libjpeg's DCT
/// scaling (1/8 steps), so a thumbnail never allocates the full image.
struct JPEGContainer: ImageContainer {
    let type = ImageType.jpeg
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    let orientation: ImageOrientation
    let colorProfile: [UInt8]?
    let exif: [UInt8]?
    let xmp: [UInt8]?
    let bitDepth: Int
    /// CMYK or YCCK samples, rendered to sRGB while decoding (through the embedded profile when
    /// there is one).
    private let isCMYK: Bool
    private let isAdobeInverted: Bool
    private let bytes: [UInt8]
    private let isFinal: Bool

    /// Parses `bytes` (`nil` when the frame header has not arrived yet).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard let (width, height, isCMYK) = TurboJPEG.header(bytes) else {
            if isFinal { throw .malformed(.jpeg, "no readable frame header") }
            return nil
        }
        try limits.check(width: width, height: height)
        self.canvasWidth = width
        self.canvasHeight = height
        self.frames = [ImageFrameInfo(width: width, height: height)]
        self.exif = JPEGMetadata.exif(inJPEG: bytes)
        self.xmp = JPEGMetadata.xmp(inJPEG: bytes)
        self.orientation = exif.map { EXIF.orientation(inTIFF: $0) } ?? .up
        self.colorProfile = JPEGMetadata.iccProfile(inJPEG: bytes)
        self.bitDepth = JPEGMetadata.samplePrecision(inJPEG: bytes) ?? 8
        self.isCMYK = isCMYK
        self.isAdobeInverted = isCMYK && JPEGMetadata.hasAdobeSegment(bytes)
        self.bytes = bytes
        self.isFinal = isFinal
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { false }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        let size = TurboJPEG.scaledSize(width: canvasWidth, height: canvasHeight, keeping: shrinkOnLoad)
        if isCMYK {
            let inks = try TurboJPEG.decodeInks(bytes, width: size.width, height: size.height, inverted: isAdobeInverted, final: isFinal)
            return ColorTransform.cmykToSRGB(inks, width: size.width, height: size.height, profile: colorProfile)
        }
        // JPEG has no alpha: the decode writes 255 into every fourth byte of every row, or fails.
        var bitmap = try TurboJPEG.decode(bytes, width: size.width, height: size.height, final: isFinal)
        bitmap.markOpaque()
        return bitmap
    }
}

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
    private let bytes: [UInt8]
    private let isFinal: Bool

    /// Parses `bytes` (`nil` when the frame header has not arrived yet).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard let (width, height) = TurboJPEG.header(bytes) else {
            if isFinal { throw .malformed(.jpeg, "no readable frame header") }
            return nil
        }
        try limits.check(width: width, height: height)
        self.canvasWidth = width
        self.canvasHeight = height
        self.frames = [ImageFrameInfo(width: width, height: height)]
        self.orientation = EXIF.orientation(inJPEG: bytes)
        self.colorProfile = JPEGMetadata.iccProfile(inJPEG: bytes)
        self.bytes = bytes
        self.isFinal = isFinal
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { false }

    func decodeFrame(at index: Int, sizeHint: Int?) throws(ImageError) -> Bitmap {
        let size = TurboJPEG.scaledSize(width: canvasWidth, height: canvasHeight, target: sizeHint)
        return try TurboJPEG.decode(bytes, width: size.width, height: size.height, final: isFinal)
    }
}

/// A BMP file (a 14-byte file header and a DIB), decoded in Swift.
struct BMPContainer: ImageContainer {
    let type = ImageType.bmp
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    private let dib: DIBDecoder
    private let bytes: [UInt8]
    private let pixelOffset: Int

    /// Parses `bytes` (`nil` when the headers have not arrived yet).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard bytes.count >= 18, let headerSize = bytes.u32LE(14), bytes.count >= 14 + Int(min(headerSize, 256)) else {
            if isFinal { throw .truncated(.bmp) }
            return nil
        }
        guard bytes[0] == 0x42, bytes[1] == 0x4D else { throw .unsupportedFeature(.bmp, "OS/2 bitmap arrays and icons") }
        dib = try DIBDecoder(bytes, at: 14, type: .bmp, limits: limits)
        pixelOffset = Int(bytes.u32LE(10)!)
        if isFinal && pixelOffset + dib.rowBytes * dib.height > bytes.count { throw .truncated(.bmp) }
        canvasWidth = dib.width
        canvasHeight = dib.height
        frames = [ImageFrameInfo(width: dib.width, height: dib.height)]
        self.bytes = bytes
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { dib.hasAlphaMask }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        dib.decode(bytes, pixelOffset: pixelOffset)
    }
}

/// A PNG file, still or animated (APNG).
///
/// libpng has no APNG support, so the animation chunks are parsed here: `acTL` (frame and play
/// counts), `fcTL` (a frame's rectangle, delay, dispose and blend) and `fdAT` (its image data).
/// Every animation chunk's CRC is checked and the shared `fcTL`/`fdAT` sequence numbers must run
/// 0, 1, 2... A frame is decoded by rebuilding a standalone PNG (the main IHDR with the frame's
/// size, the palette and colour chunks, the frame data as IDAT) and handing it to libpng.
/// A file whose animation chunks break these rules is shown as its still default image, as
/// browsers do. Before the data is final only the default image is decoded (progressively).
struct PNGContainer: ImageContainer {
    let type = ImageType.png
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount: Int
    let frames: [ImageFrameInfo]
    let orientation: ImageOrientation
    let colorProfile: [UInt8]?
    let exif: [UInt8]?
    let xmp: [UInt8]?
    let bitDepth: Int
    /// The whole file.
    private let bytes: [UInt8]
    /// Where each frame's compressed data lies (IDAT chunk data, or fdAT data after its
    /// sequence number); `nil` for a frame that is the unmodified default image.
    private let frameData: [[Range<Int>]?]
    /// IHDR's data (13 bytes).
    private let header: ArraySlice<UInt8>
    /// PLTE, tRNS and the colour chunks before the first IDAT, copied into rebuilt frames.
    private let sharedChunks: [PNGChunk]
    /// Whether the data is final.
    private let isFinal: Bool
    private let hasAlphaChannel: Bool

    /// The largest colour profile read (ICC profiles are kilobytes; a bigger one is ignored).
    static let maxColorProfileBytes = 4 << 20

    /// Parses `bytes` (`nil` when not even IHDR has arrived).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        let (chunks, truncated, error) = PNGChunk.scan(bytes)
        if let error { throw .malformed(.png, error) }
        guard let ihdr = chunks.first else {
            if isFinal { throw bytes.count < 33 ? .truncated(.png) : .malformed(.png, "no chunks") }
            return nil
        }
        guard ihdr.type == "IHDR", ihdr.data.count == 13 else { throw .malformed(.png, "the first chunk is not a 13-byte IHDR") }
        guard ihdr.crcIsValid else { throw .malformed(.png, "IHDR CRC mismatch") }
        let width = Int(bytes.u32BE(ihdr.data.lowerBound)!)
        let height = Int(bytes.u32BE(ihdr.data.lowerBound + 4)!)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .malformed(.png, "IHDR size \(width)x\(height)")
        }
        try limits.check(width: width, height: height)
        if isFinal && truncated && !chunks.contains(where: { $0.type == "IDAT" }) { throw .truncated(.png) }

        self.bytes = bytes
        self.isFinal = isFinal
        self.canvasWidth = width
        self.canvasHeight = height
        self.header = bytes[ihdr.data]
        let colorType = bytes[ihdr.data.lowerBound + 9]
        // IHDR's depth is the index width for a palette (colour type 3), whose entries are 8-bit.
        self.bitDepth = colorType == 3 ? 8 : Int(bytes[ihdr.data.lowerBound + 8])
        self.hasAlphaChannel = colorType == 4 || colorType == 6 || chunks.contains { $0.type == "tRNS" }
        let firstIDAT = chunks.firstIndex { $0.type == "IDAT" } ?? chunks.count
        self.sharedChunks = chunks[..<firstIDAT].filter {
            ["PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT"].contains($0.type) && $0.crcIsValid
        }
        self.exif = chunks.first(where: { $0.type == "eXIf" && $0.crcIsValid }).map { Array(bytes[$0.data]) }
        self.orientation = exif.map { EXIF.orientation(inTIFF: $0) } ?? .up
        // XMP: an uncompressed iTXt chunk with the keyword XML:com.adobe.xmp.
        self.xmp = chunks.first(where: { $0.type == "iTXt" && $0.crcIsValid && bytes[$0.data].starts(with: PNGWriter.xmpKeyword) })
            .flatMap { chunk -> [UInt8]? in
                let data = Array(bytes[chunk.data].dropFirst(PNGWriter.xmpKeyword.count))
                // Compression flag and method, then a language tag and a translated keyword, each NUL-ended.
                guard data.count >= 2, data[0] == 0, let language = data[2...].firstIndex(of: 0),
                    let translated = data[(language + 1)...].firstIndex(of: 0)
                else { return nil }
                return Array(data[(translated + 1)...])
            }
        // iCCP: a Latin-1 name, a NUL, compression method 0, then the zlib-compressed profile.
        self.colorProfile = chunks.first(where: { $0.type == "iCCP" && $0.crcIsValid }).flatMap { chunk -> [UInt8]? in
            let data = bytes[chunk.data]
            guard let nul = data.prefix(80).firstIndex(of: 0), nul + 2 <= data.endIndex, data[nul + 1] == 0 else { return nil }
            return PNGWriter.inflate(Array(data[(nul + 2)...]), limit: Self.maxColorProfileBytes)
        }

        let still = ImageFrameInfo(width: width, height: height)
        if isFinal, let animation = Self.animation(in: chunks, bytes: bytes, width: width, height: height) {
            self.loopCount = animation.plays
            self.frames = animation.frames
            self.frameData = animation.data
        } else {
            // Before final (or without a valid animation): the default image alone.
            self.loopCount = 0
            self.frames = [still]
            self.frameData = [nil]
        }
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { hasAlphaChannel }

    /// The largest shrink on load: 1/32, as far as a block of rows stays small (32 rows).
    static let maxShrinkDenominator = 32

    /// Whether the image is Adam7-interlaced (IHDR's last byte): its rows arrive in seven passes.
    private var isInterlaced: Bool { header[header.startIndex + 12] != 0 }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        try decodeFrame(at: index, shrinkOnLoad: shrinkOnLoad, checkpoint: nil)
    }

    /// The default image, shrunk on load to the smallest power-of-two scale that keeps
    /// `shrinkOnLoad` (at most 1/32) by averaging blocks as its rows are inflated, when it is
    /// complete and not interlaced; whole otherwise (a frame of an animation too).
    func decodeFrame(at index: Int, shrinkOnLoad: Int?, checkpoint: CodecCheckpoint?) throws(ImageError) -> Bitmap {
        guard let ranges = frameData[index] else {
            let denominator = ShrinkOnLoad.denominator(
                width: canvasWidth, height: canvasHeight, keeping: shrinkOnLoad, maxDenominator: Self.maxShrinkDenominator)
            if denominator > 1, isFinal, !isInterlaced {
                return try LibPNG.decode(
                    bytes[...], width: canvasWidth, height: canvasHeight, shrinkingBy: denominator, hasAlpha: hasAlphaChannel,
                    checkpoint: checkpoint)
            }
            return try LibPNG.decode(bytes[...], width: canvasWidth, height: canvasHeight, final: isFinal, checkpoint: checkpoint)
        }
        let frame = frames[index]
        // Rebuild a standalone PNG: signature, IHDR with the frame's size, shared chunks, IDAT, IEND.
        var png = PNGChunk.signature
        var ihdr = [UInt8]()
        ihdr.appendBE(UInt32(frame.width))
        ihdr.appendBE(UInt32(frame.height))
        ihdr.append(contentsOf: header.dropFirst(8))
        PNGChunk.append(type: "IHDR", data: ihdr[...], to: &png)
        for chunk in sharedChunks { PNGChunk.append(type: chunk.type, data: bytes[chunk.data], to: &png) }
        // One IDAT holding every fdAT's data, written in place (no intermediate copy).
        let dataSize = ranges.reduce(0) { $0 + $1.count }
        png.reserveCapacity(png.count + dataSize + 24)
        png.appendBE(UInt32(dataSize))
        let typeStart = png.count
        png.append(contentsOf: Array("IDAT".utf8))
        for range in ranges { png.append(contentsOf: bytes[range]) }
        png.appendBE(CRC32.checksum(png[typeStart...]))
        PNGChunk.append(type: "IEND", data: [], to: &png)
        // Every fdAT CRC was checked when the file was parsed.
        return try LibPNG.decode(png[...], width: frame.width, height: frame.height, final: true, verified: true, checkpoint: checkpoint)
    }

    /// The animation described by acTL/fcTL/fdAT, or `nil` when there is none or it breaks the
    /// rules (then the file shows as a still image).
    private static func animation(in chunks: [PNGChunk], bytes: [UInt8], width: Int, height: Int)
        -> (plays: Int, frames: [ImageFrameInfo], data: [[Range<Int>]?])?
    {
        guard let actl = chunks.first(where: { $0.type == "acTL" }), actl.data.count == 8, actl.crcIsValid,
            let frameCount = bytes.u32BE(actl.data.lowerBound), frameCount > 0,
            let plays = bytes.u32BE(actl.data.lowerBound + 4)
        else { return nil }
        let firstControl = chunks.firstIndex { $0.type == "fcTL" } ?? chunks.count
        let firstIDAT = chunks.firstIndex { $0.type == "IDAT" } ?? chunks.count
        // When the first fcTL precedes IDAT the default image is frame 0; otherwise it is only
        // a fallback picture and not part of the animation.
        let defaultImageIsFrame0 = firstControl < firstIDAT
        var frames: [ImageFrameInfo] = []
        var data: [[Range<Int>]] = []
        var expectedSequence: UInt32 = 0
        var sawIDAT = false
        for chunk in chunks {
            switch chunk.type {
            case "fcTL":
                guard chunk.crcIsValid, chunk.data.count == 26, bytes.u32BE(chunk.data.lowerBound) == expectedSequence,
                    let frame = frameControl(bytes, at: chunk.data.lowerBound, canvasWidth: width, canvasHeight: height)
                else { return nil }
                expectedSequence += 1
                if frames.isEmpty && defaultImageIsFrame0 {
                    guard frame.x == 0, frame.y == 0, frame.width == width, frame.height == height else { return nil }
                } else {
                    guard sawIDAT else { return nil }  // fdAT frames follow the default image
                }
                frames.append(frame)
                data.append([])
            case "IDAT":
                sawIDAT = true
                if defaultImageIsFrame0 && frames.count == 1 { data[0].append(chunk.data) }
            case "fdAT":
                guard chunk.crcIsValid, chunk.data.count > 4, bytes.u32BE(chunk.data.lowerBound) == expectedSequence,
                    !frames.isEmpty, !(frames.count == 1 && defaultImageIsFrame0)
                else { return nil }
                expectedSequence += 1
                data[data.count - 1].append((chunk.data.lowerBound + 4)..<chunk.data.upperBound)
            default:
                continue
            }
        }
        guard !frames.isEmpty, frames.count <= Int(frameCount) else { return nil }
        // A frame without image data (a file cut short) ends the animation.
        if let firstEmpty = data.firstIndex(where: \.isEmpty) {
            guard firstEmpty > 0 else { return nil }
            frames.removeSubrange(firstEmpty...)
            data.removeSubrange(firstEmpty...)
        }
        // The first frame may not restore "previous": there is nothing before it (W3C PNG §11.3.5.1).
        if frames[0].disposal == .previous { frames[0].disposal = .background }
        // A first frame that is the default image decodes straight from the file.
        var result: [[Range<Int>]?] = data
        if defaultImageIsFrame0 { result[0] = nil }
        return (Int(plays), frames, result)
    }

    /// Reads an fcTL body; `nil` when the rectangle leaves the canvas or an op is unknown.
    private static func frameControl(_ bytes: [UInt8], at offset: Int, canvasWidth: Int, canvasHeight: Int) -> ImageFrameInfo? {
        let width = Int(bytes.u32BE(offset + 4)!), height = Int(bytes.u32BE(offset + 8)!)
        let x = Int(bytes.u32BE(offset + 12)!), y = Int(bytes.u32BE(offset + 16)!)
        let numerator = Double(bytes.u16BE(offset + 20)!), denominator = bytes.u16BE(offset + 22)!
        let dispose = bytes[offset + 24], blend = bytes[offset + 25]
        guard width > 0, height > 0, x + width <= canvasWidth, y + height <= canvasHeight, dispose <= 2, blend <= 1 else { return nil }
        return ImageFrameInfo(
            x: x, y: y, width: width, height: height,
            duration: numerator / Double(denominator == 0 ? 100 : denominator),
            disposal: [.none, .background, .previous][Int(dispose)],
            blend: blend == 0 ? .source : .over
        )
    }
}

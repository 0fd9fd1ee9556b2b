/// Writes animated PNG: each frame is compressed by ``PNGWriter`` as a standalone PNG whose IDAT data
/// becomes the frame's IDAT (frame 0, the default image) or fdAT chunks, with acTL and fcTL
/// chunks around them.
enum APNGWriter {
    /// One frame: where it goes and its own pixels (`info.width` x `info.height`).
    struct Frame {
        var info: ImageFrameInfo
        var pixels: Bitmap
    }

    /// An APNG of `frames` on a `width` x `height` canvas, played `plays` times (0 = forever).
    /// Frame 0 is also the still image shown by viewers without APNG and must cover the canvas,
    /// unless a separate `defaultImage` (canvas-size, not part of the animation) is given.
    static func write(
        width: Int, height: Int, frames: [Frame], plays: Int, defaultImage: Bitmap? = nil,
        level: Int = PNGWriter.defaultLevel
    ) throws(ImageError) -> [UInt8] {
        guard let first = frames.first else { throw .invalidInput("no frames") }
        if let defaultImage {
            guard defaultImage.width == width, defaultImage.height == height else { throw .invalidInput("the default image must be canvas-size") }
        } else {
            guard first.info.x == 0, first.info.y == 0, first.info.width == width, first.info.height == height else {
                throw .invalidInput("the first APNG frame must cover the canvas")
            }
        }
        for frame in frames {
            guard frame.info.width > 0, frame.info.height > 0, frame.info.x >= 0, frame.info.y >= 0,
                frame.info.x + frame.info.width <= width, frame.info.y + frame.info.height <= height,
                frame.pixels.width == frame.info.width, frame.pixels.height == frame.info.height
            else { throw .invalidInput("an APNG frame lies outside the canvas or its pixels do not match its size") }
        }
        // All frames share IHDR's colour type: RGB only when every frame is opaque.
        let withAlpha = frames.contains { !$0.pixels.isOpaque } || defaultImage.map { !$0.isOpaque } ?? false
        var out = PNGChunk.signature
        var sequence: UInt32 = 0
        // The default image, when separate, comes first as IDAT with no fcTL before it.
        let images = (defaultImage.map { [Frame(info: ImageFrameInfo(width: width, height: height), pixels: $0)] } ?? []) + frames
        for (index, frame) in images.enumerated() {
            let png = try PNGWriter.encode(frame.pixels, withAlpha: withAlpha, level: level)
            let (chunks, _, _) = PNGChunk.scan(png)
            if index == 0 {
                guard let ihdr = chunks.first(where: { $0.type == "IHDR" }) else { throw .codec(.png, "libpng wrote no IHDR") }
                // IHDR carries the canvas size (frame 0 may be smaller when a default image is given).
                var header = Array(png[ihdr.data])
                var size = [UInt8]()
                size.appendBE(UInt32(width))
                size.appendBE(UInt32(height))
                header.replaceSubrange(0..<8, with: size)
                PNGChunk.append(type: "IHDR", data: header[...], to: &out)
                var actl = [UInt8]()
                actl.appendBE(UInt32(frames.count))
                actl.appendBE(UInt32(clamping: max(0, plays)))
                PNGChunk.append(type: "acTL", data: actl[...], to: &out)
            }
            let isDefaultImageOnly = defaultImage != nil && index == 0
            if !isDefaultImageOnly {
                PNGChunk.append(type: "fcTL", data: frameControl(frame.info, sequence: sequence)[...], to: &out)
                sequence += 1
            }
            for chunk in chunks where chunk.type == "IDAT" {
                if index == 0 {
                    PNGChunk.append(type: "IDAT", data: png[chunk.data], to: &out)
                } else {
                    var fdat = [UInt8]()
                    fdat.reserveCapacity(chunk.data.count + 4)
                    fdat.appendBE(sequence)
                    fdat.append(contentsOf: png[chunk.data])
                    PNGChunk.append(type: "fdAT", data: fdat[...], to: &out)
                    sequence += 1
                }
            }
        }
        PNGChunk.append(type: "IEND", data: [], to: &out)
        return out
    }

    /// An fcTL body.
    private static func frameControl(_ info: ImageFrameInfo, sequence: UInt32) -> [UInt8] {
        var body = [UInt8]()
        body.appendBE(sequence)
        body.appendBE(UInt32(info.width))
        body.appendBE(UInt32(info.height))
        body.appendBE(UInt32(info.x))
        body.appendBE(UInt32(info.y))
        let delay = delayFraction(info.duration)
        body.appendBE(delay.numerator)
        body.appendBE(delay.denominator)
        let disposal: UInt8 =
            switch info.disposal {
            case .none: 0;
            case .background: 1;
            case .previous: 2
            }
        body.append(disposal)
        body.append(info.blend == .source ? 0 : 1)
        return body
    }

    /// A duration as a 16-bit fraction of seconds: milliseconds when they fit, else centiseconds,
    /// else whole seconds.
    static func delayFraction(_ seconds: Double) -> (numerator: UInt16, denominator: UInt16) {
        let duration = max(0, seconds)
        for denominator in [1000.0, 100.0, 1.0] {
            let numerator = (duration * denominator).rounded()
            if numerator <= 65535 { return (UInt16(numerator), UInt16(denominator)) }
        }
        return (65535, 1)
    }
}

/// A GIF file (GIF87a or GIF89a), still or animated, decoded in Swift.
///
/// Parsing indexes the frames (their descriptors, palettes and where their LZW data lies)
/// without decoding them, so memory does not grow with the frame count; `decodeFrame` runs LZW
/// for one frame on demand. The rules, as browsers apply them:
/// - disposal 2 ("restore to background") clears to transparent (the background colour index
///   is ignored); 3 restores the canvas as it was before the frame; 0, 1 and 4–7 keep it;
/// - the transparency index comes from the Graphic Control Extension just before the frame,
///   applies to that frame only and may lie beyond the palette;
/// - a frame without a local palette in a file without a global one draws opaque black;
/// - frames are clipped to the canvas; a zero-size frame draws nothing;
/// - too little LZW data leaves the rest of the frame transparent; too much is ignored;
/// - loop count: no NETSCAPE2.0 extension plays once; a stored N > 0 means N repeats (N + 1
///   plays); 0 means forever. `loopCount` reports plays (0 = forever) like APNG and WebP.
/// Before the data is final, frame 0 is decoded from what arrived (rows appear progressively).
struct GIFContainer: ImageContainer {
    let type = ImageType.gif
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount: Int
    let frames: [ImageFrameInfo]
    private let records: [FrameRecord]
    private let bytes: [UInt8]
    private let globalPalette: Range<Int>?

    /// Where one frame's data lies.
    private struct FrameRecord: Sendable {
        var palette: Range<Int>?
        var transparentIndex: Int?
        var interlaced: Bool
        var minimumCodeSize: Int
        /// The sub-blocks (each a length byte and payload), up to and excluding the terminator.
        var blocks: Range<Int>
    }

    /// Parses `bytes` (`nil` when the header has not arrived yet).
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard bytes.count >= 13 else {
            if isFinal { throw .truncated(.gif) }
            return nil
        }
        var width = Int(bytes.u16LE(6)!)
        var height = Int(bytes.u16LE(8)!)
        let flags = bytes[10]
        var offset = 13
        var globalPalette: Range<Int>?
        if flags & 0x80 != 0 {
            let size = 3 << (Int(flags & 7) + 1)
            globalPalette = offset..<(offset + size)
            offset += size
        }
        var frames: [ImageFrameInfo] = []
        var records: [FrameRecord] = []
        var plays = 1
        var control: (delay: Int, disposal: FrameDisposal, transparent: Int?)?
        var ended = false
        var complete = false

        /// The end of the sub-block chain starting at `start`, or `nil` when it runs past the data.
        func subBlocksEnd(from start: Int) -> Int? {
            var position = start
            while position < bytes.count {
                let size = Int(bytes[position])
                if size == 0 { return position }
                position += 1 + size
            }
            return nil
        }

        parsing: while !ended {
            guard offset < bytes.count else { break }
            switch bytes[offset] {
            case 0x21:  // extension
                guard offset + 2 <= bytes.count else { break parsing }
                let label = bytes[offset + 1]
                guard let end = subBlocksEnd(from: offset + 2) else { break parsing }
                let body = offset + 2
                if label == 0xF9, bytes.u8(body) == 4, body + 5 <= bytes.count {
                    let packed = bytes[body + 1]
                    let disposal: FrameDisposal =
                        switch (packed >> 2) & 7 {
                        case 2: .background
                        case 3: .previous
                        default: .none
                        }
                    control = (Int(bytes.u16LE(body + 2)!), disposal, packed & 1 != 0 ? Int(bytes[body + 4]) : nil)
                } else if label == 0xFF, bytes.u8(body) == 11, body + 12 <= bytes.count,
                    ["NETSCAPE2.0", "ANIMEXTS1.0"].contains(String(decoding: bytes[(body + 1)..<(body + 12)], as: UTF8.self)),
                    bytes.u8(body + 12) ?? 0 >= 3, bytes.u8(body + 13) == 1, let repeats = bytes.u16LE(body + 14)
                {
                    plays = repeats == 0 ? 0 : Int(repeats) + 1
                }
                offset = end + 1
            case 0x2C:  // image descriptor
                guard offset + 10 <= bytes.count else { break parsing }
                let x = Int(bytes.u16LE(offset + 1)!), y = Int(bytes.u16LE(offset + 3)!)
                let w = Int(bytes.u16LE(offset + 5)!), h = Int(bytes.u16LE(offset + 7)!)
                let packed = bytes[offset + 9]
                var position = offset + 10
                var palette: Range<Int>?
                if packed & 0x80 != 0 {
                    let size = 3 << (Int(packed & 7) + 1)
                    palette = position..<(position + size)
                    position += size
                }
                guard position + 1 <= bytes.count else { break parsing }
                let minimumCodeSize = Int(bytes[position])
                let blocksStart = position + 1
                let blocksEnd = subBlocksEnd(from: blocksStart)
                if blocksEnd == nil && (isFinal || !frames.isEmpty) { break parsing }  // a partial frame only as frame 0
                try limits.check(width: w, height: h)
                if frames.isEmpty && (width == 0 || height == 0) {
                    // A zero logical screen takes the first frame's extent.
                    width = max(width, x + w)
                    height = max(height, y + h)
                }
                frames.append(
                    ImageFrameInfo(
                        x: x, y: y, width: w, height: h,
                        duration: Double(control?.delay ?? 0) / 100,
                        disposal: control?.disposal ?? .none,
                        blend: .over))
                records.append(
                    FrameRecord(
                        palette: palette, transparentIndex: control?.transparent, interlaced: packed & 0x40 != 0,
                        minimumCodeSize: minimumCodeSize, blocks: blocksStart..<(blocksEnd ?? bytes.count)))
                control = nil
                guard let blocksEnd else { break parsing }
                offset = blocksEnd + 1
            case 0x3B:  // trailer
                ended = true
                complete = true
            default:
                // Garbage between blocks: browsers stop here and show what they have.
                ended = true
            }
        }
        if isFinal && frames.isEmpty { throw complete || offset >= bytes.count ? .truncated(.gif) : .malformed(.gif, "no image at offset \(offset)") }
        guard !frames.isEmpty else { return nil }
        try limits.check(width: width, height: height)
        self.canvasWidth = width
        self.canvasHeight = height
        self.loopCount = plays
        self.frames = isFinal ? frames : [frames[0]]
        self.records = records
        self.bytes = bytes
        self.globalPalette = globalPalette.flatMap { $0.upperBound <= bytes.count ? $0 : nil }
    }

    func frameMayHaveAlpha(at index: Int) -> Bool { records[index].transparentIndex != nil }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        let frame = frames[index]
        let record = records[index]
        let pixelCount = frame.width * frame.height
        guard pixelCount > 0 else { return Bitmap(width: frame.width, height: frame.height) }
        // Gather the sub-block payloads into one run for the LZW decoder.
        var payload = [UInt8]()
        payload.reserveCapacity(record.blocks.count)
        var position = record.blocks.lowerBound
        while position < record.blocks.upperBound {
            let size = Int(bytes[position])
            let end = min(position + 1 + size, record.blocks.upperBound)
            payload.append(contentsOf: bytes[(position + 1)..<end])
            position = end
        }
        // Unwritten indices stay at a value marked transparent below.
        var indices = [UInt8](repeating: 0, count: pixelCount)
        let written = payload.withUnsafeBufferPointer { input in
            indices.withUnsafeMutableBufferPointer { output in
                LZWDecoder.decode(minimumCodeSize: record.minimumCodeSize, blocks: input, into: output)
            }
        }
        // Palette: 256 RGBA entries; entries past the palette's end are opaque black.
        var colors = [RGBA](repeating: RGBA(0, 0, 0, 255), count: 256)
        if let palette = record.palette ?? globalPalette, palette.upperBound <= bytes.count {
            for entry in 0..<(palette.count / 3) {
                let i = palette.lowerBound + entry * 3
                colors[entry] = RGBA(bytes[i], bytes[i + 1], bytes[i + 2])
            }
        }
        if let transparent = record.transparentIndex { colors[transparent].a = 0 }
        var bitmap = Bitmap(width: frame.width, height: frame.height)
        let width = frame.width, height = frame.height
        colors.withUnsafeBufferPointer { colors in
            indices.withUnsafeBufferPointer { indices in
                bitmap.pixels.withUnsafeMutableBufferPointer { out in
                    for fileRow in 0..<height {
                        let row = record.interlaced ? Self.interlacedRow(fileRow, height: height) : fileRow
                        let rowStart = fileRow * width
                        // Rows the data did not reach stay transparent.
                        let rowEnd = min(width, written - rowStart)
                        guard rowEnd > 0 else { break }
                        var o = row * width * 4
                        for i in rowStart..<(rowStart + rowEnd) {
                            let color = colors[Int(indices[i])]
                            out[o] = color.r; out[o + 1] = color.g; out[o + 2] = color.b; out[o + 3] = color.a
                            o += 4
                        }
                    }
                }
            }
        }
        return bitmap
    }

    /// The image row that the `n`-th row in the file fills, for an interlaced frame (passes
    /// start at rows 0, 4, 2, 1 and step 8, 8, 4, 2).
    static func interlacedRow(_ n: Int, height: Int) -> Int {
        let pass1 = (height + 7) / 8
        if n < pass1 { return n * 8 }
        let pass2 = (height + 3) / 8
        if n < pass1 + pass2 { return (n - pass1) * 8 + 4 }
        let pass3 = (height + 1) / 4
        if n < pass1 + pass2 + pass3 { return (n - pass1 - pass2) * 4 + 2 }
        return (n - pass1 - pass2 - pass3) * 2 + 1
    }
}

/// One chunk of a PNG stream: its type and where its data lies in the file.
struct PNGChunk: Sendable {
    /// The four-letter type, such as "IHDR".
    let type: String
    /// The data bytes (without length, type and CRC).
    let data: Range<Int>
    /// Whether the stored CRC matches type and data (IDAT's is not checked here: libpng checks
    /// it when it decodes the image data).
    let crcIsValid: Bool

    /// The 8-byte PNG signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks of `bytes` (which start with the signature), up to IEND or as far as complete
    /// chunks go. `truncated` says the data stopped inside a chunk or before IEND; `error`
    /// reports a structurally impossible length.
    static func scan(_ bytes: [UInt8]) -> (chunks: [PNGChunk], truncated: Bool, error: String?) {
        var chunks: [PNGChunk] = []
        var offset = signature.count
        while true {
            guard let length = bytes.u32BE(offset), offset + 8 <= bytes.count else { return (chunks, true, nil) }
            guard length <= 0x7FFF_FFFF else { return (chunks, false, "chunk length \(length) at offset \(offset) exceeds 2^31-1") }
            let dataStart = offset + 8
            let (dataEnd, overflow) = dataStart.addingReportingOverflow(Int(length))
            guard !overflow, dataEnd + 4 <= bytes.count else { return (chunks, true, nil) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let stored = bytes.u32BE(dataEnd)!
            let valid =
                type == "IDAT"
                || stored == bytes.withUnsafeBufferPointer { CRC32.checksum(UnsafeBufferPointer(rebasing: $0[(offset + 4)..<dataEnd])) }
            chunks.append(PNGChunk(type: type, data: dataStart..<dataEnd, crcIsValid: valid))
            offset = dataEnd + 4
            if type == "IEND" { return (chunks, false, nil) }
        }
    }

    /// Appends a chunk with its length and CRC to `out`.
    static func append(type: String, data: ArraySlice<UInt8>, to out: inout [UInt8]) {
        out.appendBE(UInt32(data.count))
        let start = out.count
        out.append(contentsOf: Array(type.utf8))
        out.append(contentsOf: data)
        out.appendBE(CRC32.checksum(out[start...]))
    }
}

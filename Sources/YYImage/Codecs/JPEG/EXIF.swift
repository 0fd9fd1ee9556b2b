/// Reads the orientation tag from EXIF data (a TIFF structure), as found in JPEG APP1, PNG
/// eXIf and WebP EXIF chunks. Anything unreadable means "upright".
enum EXIF {
    /// The orientation in a TIFF header + IFD0 (`bytes` starts at "II" or "MM").
    static func orientation(inTIFF bytes: [UInt8]) -> ImageOrientation {
        guard let tiff = TIFFStructure(bytes), let first = tiff.firstDirectory,
            let entry = tiff.entries(at: first).first(where: { $0.tag == 0x0112 }), entry.type == 3,
            let value = tiff.u16(entry.valueOffset)
        else { return .up }
        return ImageOrientation(rawValue: Int(value)) ?? .up
    }

    /// The orientation in a JPEG file's APP1 "Exif" segment.
    static func orientation(inJPEG bytes: [UInt8]) -> ImageOrientation {
        JPEGMetadata.exif(inJPEG: bytes).map { orientation(inTIFF: $0) } ?? .up
    }

    /// `tiff` with its IFD0 orientation tag, if any, set to 1 (upright): for pixels that were
    /// turned upright already. Anything unreadable is returned as it is.
    static func resettingOrientation(inTIFF tiff: [UInt8]) -> [UInt8] {
        guard tiff.count >= 8, tiff[0] == tiff[1], tiff[0] == 0x49 || tiff[0] == 0x4D else { return tiff }
        let littleEndian = tiff[0] == 0x49
        func u16(_ offset: Int) -> UInt16? { littleEndian ? tiff.u16LE(offset) : tiff.u16BE(offset) }
        func u32(_ offset: Int) -> UInt32? { littleEndian ? tiff.u32LE(offset) : tiff.u32BE(offset) }
        guard let ifd = u32(4).map(Int.init), let count = u16(ifd) else { return tiff }
        var out = tiff
        for entry in 0..<Int(count) {
            let offset = ifd + 2 + entry * 12
            guard offset + 10 <= out.count, let tag = u16(offset) else { break }
            if tag == 0x0112, u16(offset + 2) == 3 {
                out[offset + 8] = littleEndian ? 1 : 0
                out[offset + 9] = littleEndian ? 0 : 1
            }
        }
        return out
    }

    /// A new TIFF structure with only IFD0's copyright (0x8298) and artist (0x013B) tags of
    /// `tiff`, the copyright notice imgproxy keeps when it strips metadata; `nil` when `tiff`
    /// has neither (or cannot be read).
    static func copyrightOnly(inTIFF tiff: [UInt8]) -> [UInt8]? {
        guard let structure = TIFFStructure(tiff), let first = structure.firstDirectory else { return nil }
        // ASCII values by tag, as stored (NUL included).
        var kept: [(tag: UInt16, value: [UInt8])] = []
        for entry in structure.entries(at: first) where entry.tag == 0x013B || entry.tag == 0x8298 {
            guard entry.type == 2, let value = structure.value(of: entry) else { continue }
            kept.append((entry.tag, Array(value)))
        }
        guard !kept.isEmpty else { return nil }
        kept.sort { $0.tag < $1.tag }
        // Little-endian: header, IFD0 (count, 12-byte entries, no next IFD), then the values.
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func append16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func append32(_ value: Int) { append16(value & 0xFFFF); append16(value >> 16 & 0xFFFF) }
        append16(kept.count)
        var dataOffset = 8 + 2 + kept.count * 12 + 4
        for (tag, value) in kept {
            append16(Int(tag)); append16(2); append32(value.count)
            if value.count <= 4 {
                out += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                append32(dataOffset)
                dataOffset += value.count + value.count % 2
            }
        }
        append32(0)
        for (_, value) in kept where value.count > 4 {
            out += value
            if value.count % 2 == 1 { out.append(0) }
        }
        return out
    }
}

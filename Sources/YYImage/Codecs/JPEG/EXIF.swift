/// Reads the orientation tag from EXIF data (a TIFF structure), as found in JPEG APP1, PNG
/// eXIf and WebP EXIF chunks. Anything unreadable means "upright".
enum EXIF {
    /// The orientation in a TIFF header + IFD0 (`bytes` starts at "II" or "MM").
    static func orientation(inTIFF bytes: [UInt8]) -> ImageOrientation {
        guard bytes.count >= 8 else { return .up }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return .up
        }
        func u16(_ offset: Int) -> UInt16? { littleEndian ? bytes.u16LE(offset) : bytes.u16BE(offset) }
        func u32(_ offset: Int) -> UInt32? { littleEndian ? bytes.u32LE(offset) : bytes.u32BE(offset) }
        guard u16(2) == 42, let ifd = u32(4).map(Int.init), let count = u16(ifd) else { return .up }
        for entry in 0..<Int(count) {
            let offset = ifd + 2 + entry * 12
            guard let tag = u16(offset) else { return .up }
            if tag == 0x0112, u16(offset + 2) == 3, let value = u16(offset + 8) {
                return ImageOrientation(rawValue: Int(value)) ?? .up
            }
        }
        return .up
    }

    /// The orientation in a JPEG file's APP1 "Exif" segment.
    static func orientation(inJPEG bytes: [UInt8]) -> ImageOrientation {
        var offset = 2  // after SOI
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xFF {
                offset += marker == 0xFF ? 1 : 2
                continue
            }
            guard let length = bytes.u16BE(offset + 2).map(Int.init), length >= 2 else { return .up }
            if marker == 0xDA || marker == 0xD9 { return .up }  // image data: no more metadata
            let body = offset + 4
            if marker == 0xE1, length >= 8, body + 6 <= bytes.count,
               Array(bytes[body..<(body + 6)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                let end = min(bytes.count, offset + 2 + length)
                return orientation(inTIFF: Array(bytes[(body + 6)..<max(body + 6, end)]))
            }
            offset += 2 + length
        }
        return .up
    }
}

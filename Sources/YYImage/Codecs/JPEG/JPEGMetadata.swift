/// Colour profiles in JPEG files: ICC data split over APP2 `ICC_PROFILE` segments (ICC.1 Annex B).
enum JPEGMetadata {
    private static let iccSignature = Array("ICC_PROFILE".utf8) + [0]
    /// The most profile bytes one APP2 segment carries (65,535 less length, signature and numbering).
    private static let iccBytesPerSegment = 65_519

    /// The ICC profile of a JPEG file, reassembled from its APP2 segments in their numbered order;
    /// `nil` when there is none or its segments are inconsistent.
    static func iccProfile(inJPEG bytes: [UInt8]) -> [UInt8]? {
        var pieces: [Int: ArraySlice<UInt8>] = [:]
        var expected = 0
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD8).contains(marker) {
                offset += marker == 0xFF ? 1 : 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }
            guard let length = bytes.u16BE(offset + 2).map(Int.init), length >= 2, offset + 2 + length <= bytes.count else { break }
            let body = (offset + 4)..<(offset + 2 + length)
            if marker == 0xE2, body.count > 14, Array(bytes[body.lowerBound..<(body.lowerBound + 12)]) == iccSignature {
                let sequence = Int(bytes[body.lowerBound + 12]), count = Int(bytes[body.lowerBound + 13])
                guard sequence >= 1, count >= 1, expected == 0 || expected == count else { return nil }
                expected = count
                pieces[sequence] = bytes[(body.lowerBound + 14)..<body.upperBound]
            }
            offset += 2 + length
        }
        guard expected > 0, pieces.count == expected else { return nil }
        return (1...expected).flatMap { pieces[$0]! }
    }

    /// Whether an APP14 "Adobe" segment comes before the image data (Adobe's CMYK files store
    /// inverted samples and say so with it).
    static func hasAdobeSegment(_ bytes: [UInt8]) -> Bool {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD8).contains(marker) {
                offset += marker == 0xFF ? 1 : 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return false }
            guard let length = bytes.u16BE(offset + 2).map(Int.init), length >= 2 else { return false }
            if marker == 0xEE, offset + 9 <= bytes.count, Array(bytes[(offset + 4)..<(offset + 9)]) == Array("Adobe".utf8) {
                return true
            }
            offset += 2 + length
        }
        return false
    }

    /// `jpeg` with `profile` in APP2 segments after its JFIF (APP0) segment, or after SOI.
    static func inserting(iccProfile profile: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        guard jpeg.count >= 4, !profile.isEmpty else { return jpeg }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, let length = jpeg.u16BE(4) { at = 4 + Int(length) }
        let count = (profile.count + iccBytesPerSegment - 1) / iccBytesPerSegment
        guard count <= 255 else { return jpeg }
        var segments: [UInt8] = []
        for index in 0..<count {
            let piece = profile[(index * iccBytesPerSegment)..<min(profile.count, (index + 1) * iccBytesPerSegment)]
            segments += [0xFF, 0xE2]
            segments.appendBE(UInt16(2 + iccSignature.count + 2 + piece.count))
            segments += iccSignature + [UInt8(index + 1), UInt8(count)]
            segments += piece
        }
        var out = jpeg
        out.insert(contentsOf: segments, at: at)
        return out
    }
}

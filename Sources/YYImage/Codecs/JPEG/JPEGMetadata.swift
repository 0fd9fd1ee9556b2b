/// Metadata in JPEG files: EXIF and XMP in APP1 segments, ICC profiles split over APP2
/// `ICC_PROFILE` segments (ICC.1 Annex B), and Adobe's APP14 marker.
enum JPEGMetadata {
    private static let iccSignature = Array("ICC_PROFILE".utf8) + [0]
    private static let exifSignature = Array("Exif".utf8) + [0, 0]
    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The marker and body (after the length) of each segment before the image data, in order;
    /// the walk stops at the first malformed length.
    static func segments(_ bytes: [UInt8]) -> [(marker: UInt8, body: Range<Int>)] {
        var found: [(UInt8, Range<Int>)] = []
        var offset = 2  // after SOI
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD8).contains(marker) {
                offset += marker == 0xFF ? 1 : 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }  // image data: no more metadata
            guard let length = bytes.u16BE(offset + 2).map(Int.init), length >= 2, offset + 2 + length <= bytes.count else { break }
            found.append((marker, (offset + 4)..<(offset + 2 + length)))
            offset += 2 + length
        }
        return found
    }

    /// The body of the first APP1 segment that starts with `signature`, after it.
    private static func app1(_ bytes: [UInt8], signature: [UInt8]) -> [UInt8]? {
        for (marker, body) in segments(bytes)
        where marker == 0xE1 && body.count >= signature.count
            && bytes[body.lowerBound..<(body.lowerBound + signature.count)].elementsEqual(signature)
        {
            return Array(bytes[(body.lowerBound + signature.count)..<body.upperBound])
        }
        return nil
    }

    /// The EXIF data (a TIFF structure) of the first APP1 "Exif" segment.
    static func exif(inJPEG bytes: [UInt8]) -> [UInt8]? { app1(bytes, signature: exifSignature) }

    /// The XMP packet of the first APP1 XMP segment.
    static func xmp(inJPEG bytes: [UInt8]) -> [UInt8]? { app1(bytes, signature: xmpSignature) }
    /// The most profile bytes one APP2 segment carries (65,535 less length, signature and numbering).
    private static let iccBytesPerSegment = 65_519

    /// The ICC profile of a JPEG file, reassembled from its APP2 segments in their numbered order;
    /// `nil` when there is none or its segments are inconsistent.
    static func iccProfile(inJPEG bytes: [UInt8]) -> [UInt8]? {
        var pieces: [Int: ArraySlice<UInt8>] = [:]
        var expected = 0
        for (marker, body) in segments(bytes)
        where marker == 0xE2 && body.count > 14
            && bytes[body.lowerBound..<(body.lowerBound + 12)].elementsEqual(iccSignature)
        {
            let sequence = Int(bytes[body.lowerBound + 12]), count = Int(bytes[body.lowerBound + 13])
            guard sequence >= 1, count >= 1, expected == 0 || expected == count else { return nil }
            expected = count
            pieces[sequence] = bytes[(body.lowerBound + 14)..<body.upperBound]
        }
        guard expected > 0, pieces.count == expected else { return nil }
        return (1...expected).flatMap { pieces[$0]! }
    }

    /// The sample precision of the frame header (SOF0...SOF15 but DHT, JPG and DAC, which share
    /// the range): 8 or 12 bits, 2...16 for lossless files.
    static func samplePrecision(inJPEG bytes: [UInt8]) -> Int? {
        let frameHeader = segments(bytes).first { marker, body in
            (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) && !body.isEmpty
        }
        return frameHeader.map { Int(bytes[$0.body.lowerBound]) }
    }

    /// Whether an APP14 "Adobe" segment comes before the image data (Adobe's CMYK files store
    /// inverted samples and say so with it).
    static func hasAdobeSegment(_ bytes: [UInt8]) -> Bool {
        segments(bytes).contains { marker, body in
            marker == 0xEE && body.count >= 5 && bytes[body.lowerBound..<(body.lowerBound + 5)].elementsEqual("Adobe".utf8)
        }
    }

    /// `jpeg` with EXIF and XMP in APP1 segments and `iccProfile` in APP2 segments, after its JFIF
    /// (APP0) segment, or after SOI. Payloads too long for one segment (64 KB) are left out,
    /// except the profile, which ICC.1 lets span up to 255 segments.
    static func inserting(exif: [UInt8]?, xmp: [UInt8]?, iccProfile: [UInt8]?, into jpeg: [UInt8]) -> [UInt8] {
        guard jpeg.count >= 4 else { return jpeg }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, let length = jpeg.u16BE(4) { at = 4 + Int(length) }
        var segments: [UInt8] = []
        func append(marker: UInt8, _ body: [UInt8]) {
            segments += [0xFF, marker]
            segments.appendBE(UInt16(2 + body.count))
            segments += body
        }
        if let exif, exifSignature.count + exif.count <= 65_533 { append(marker: 0xE1, exifSignature + exif) }
        if let xmp, xmpSignature.count + xmp.count <= 65_533 { append(marker: 0xE1, xmpSignature + xmp) }
        if let profile = iccProfile, !profile.isEmpty {
            let count = (profile.count + iccBytesPerSegment - 1) / iccBytesPerSegment
            if count <= 255 {
                for index in 0..<count {
                    let piece = profile[(index * iccBytesPerSegment)..<min(profile.count, (index + 1) * iccBytesPerSegment)]
                    append(marker: 0xE2, iccSignature + [UInt8(index + 1), UInt8(count)] + piece)
                }
            }
        }
        var out = jpeg
        out.insert(contentsOf: segments, at: at)
        return out
    }
}

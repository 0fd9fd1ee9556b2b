import Foundation

/// What an image's metadata says, in brief: the camera and date from EXIF, whether it has GPS,
/// XMP and IPTC data, and its colour profile's name.
public struct ImageMetadataSummary: Sendable, Equatable {
    /// EXIF's Make and Model.
    public var cameraMake: String?
    public var cameraModel: String?
    /// EXIF's DateTimeOriginal, else its DateTime, as written ("2024:05:01 12:00:00").
    public var dateTaken: String?
    /// Whether the file has EXIF data, and whether that has a GPS directory.
    public var hasEXIF = false
    public var hasGPS = false
    public var hasXMP = false
    /// Whether the file has IPTC data (a JPEG's Photoshop APP13 segment).
    public var hasIPTC = false
    /// The ICC profile's description (its `desc` tag), when it has one.
    public var colorProfileDescription: String?

    /// The summary of what `decoder` read from the file `bytes`.
    public init(decoder: ImageDecoder, bytes: [UInt8]) {
        if let exif = decoder.exif {
            hasEXIF = true
            read(exif: [UInt8](exif))
        }
        hasXMP = decoder.xmp != nil
        if decoder.type == .jpeg {
            hasIPTC = JPEGMetadata.segments(bytes).contains { segment in
                segment.marker == 0xED && bytes[segment.body].starts(with: Array("Photoshop 3.0".utf8))
            }
        }
        colorProfileDescription = decoder.colorProfile.flatMap { Self.profileDescription([UInt8]($0)) }
    }

    private mutating func read(exif: [UInt8]) {
        guard let tiff = TIFFStructure(exif), let first = tiff.firstDirectory else { return }
        var exifDirectory: Int?
        for entry in tiff.entries(at: first) {
            switch entry.tag {
            case 0x010F: cameraMake = tiff.ascii(entry)
            case 0x0110: cameraModel = tiff.ascii(entry)
            case 0x0132: dateTaken = dateTaken ?? tiff.ascii(entry)
            case 0x8769: exifDirectory = tiff.long(entry)
            case 0x8825: hasGPS = tiff.long(entry) != nil
            default: break
            }
        }
        if let exifDirectory, exifDirectory != first, let original = tiff.entries(at: exifDirectory).first(where: { $0.tag == 0x9003 }) {
            dateTaken = tiff.ascii(original) ?? dateTaken
        }
    }

    /// The `desc` tag of an ICC profile: ICC v2's `desc` type (ASCII) or v4's `mluc` (its
    /// first record, UTF-16BE).
    static func profileDescription(_ profile: [UInt8]) -> String? {
        guard let count = profile.u32BE(128).map(Int.init), count <= 1000 else { return nil }
        for index in 0..<count {
            let at = 132 + index * 12
            guard profile.u32BE(at) == 0x6465_7363,  // "desc"
                let offset = profile.u32BE(at + 4).map(Int.init), let size = profile.u32BE(at + 8).map(Int.init),
                offset <= profile.count - size, size >= 12
            else { continue }
            let tag = Array(profile[offset..<(offset + size)])
            switch tag.u32BE(0) {
            case 0x6465_7363:  // desc: a length with its NUL, then ASCII
                guard let length = tag.u32BE(8).map(Int.init), length > 0, length <= tag.count - 12 else { return nil }
                let text = String(decoding: tag[12..<(12 + length)].prefix { $0 != 0 }, as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            case 0x6D6C_7563:  // mluc: records of language, country, length, offset
                guard tag.u32BE(8).map({ $0 > 0 }) == true, let length = tag.u32BE(20).map(Int.init),
                    let start = tag.u32BE(24).map(Int.init), start <= tag.count - length, length.isMultiple(of: 2)
                else { return nil }
                let units = stride(from: start, to: start + length, by: 2).compactMap { tag.u16BE($0) }
                let text = String(decoding: units, as: UTF16.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            default:
                return nil
            }
        }
        return nil
    }
}

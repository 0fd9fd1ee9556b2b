/// The image file formats YYImage knows by their first bytes.
public enum ImageType: String, Sendable, CaseIterable, Codable {
    /// JPEG (JFIF/Exif), baseline or progressive.
    case jpeg
    /// JPEG 2000 (JP2 container or raw codestream): recognised only.
    case jpeg2000
    /// TIFF: recognised only.
    case tiff
    /// Windows bitmap.
    case bmp
    /// Windows icon or cursor.
    case ico
    /// Apple icon: recognised only.
    case icns
    /// GIF87a / GIF89a, still or animated.
    case gif
    /// PNG, still or animated (APNG).
    case png
    /// WebP, lossy or lossless, still or animated.
    case webp

    /// The usual file-name extension (without the dot).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .jpeg2000: "jp2"
        case .tiff: "tiff"
        default: rawValue
        }
    }

    /// Whether `ImageDecoder` decodes this type (TIFF, JPEG 2000 and ICNS are recognised only).
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .bmp, .ico, .gif, .png, .webp: true
        case .jpeg2000, .tiff, .icns: false
        }
    }

    /// Whether `ImageEncoder` writes this type.
    public var isEncodable: Bool { isDecodable }

    /// Whether files of this type keep transparency (JPEG does not: transparent pixels are
    /// flattened onto a background before writing one).
    public var storesAlpha: Bool { self != .jpeg }

    /// The type for a file-name extension (case-insensitive; `jpeg`, `jpe`, `apng`, `cur`... accepted).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "jp2", "j2k", "jpf", "jpx": self = .jpeg2000
        case "tif", "tiff": self = .tiff
        case "bmp", "dib": self = .bmp
        case "ico", "cur": self = .ico
        case "icns": self = .icns
        case "gif": self = .gif
        case "png", "apng": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }

    /// Recognises a type from the first bytes of a file (16 are enough; fewer may not be).
    /// Returns `nil` for anything else.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + prefix.count && Array(b[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0x4D, 0x4D, 0x00, 0x2A]) || starts([0x49, 0x49, 0x2A, 0x00]) {
            self = .tiff
        } else if starts([0x00, 0x00, 0x01, 0x00]) || starts([0x00, 0x00, 0x02, 0x00]) {
            self = .ico  // icon or cursor
        } else if starts(Array("icns".utf8)) {
            self = .icns
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts([0xFF, 0x4F, 0xFF, 0x51]) || starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A]) {
            self = .jpeg2000  // raw codestream, or the JP2 signature box
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if b.count >= 2, ["BM", "BA", "IC", "PI", "CI", "CP"].contains(String(decoding: b[0..<2], as: UTF8.self)) {
            self = .bmp
        } else {
            return nil
        }
    }
}

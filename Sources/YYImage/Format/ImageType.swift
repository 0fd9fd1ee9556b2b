/// The image file formats YYImage knows by their first bytes.
public enum ImageType: String, Sendable, CaseIterable, Codable {
    /// JPEG (JFIF/Exif), baseline or progressive.
    case jpeg
    /// JPEG 2000, the JP2 container or a raw codestream (OpenJPEG).
    case jpeg2000
    /// TIFF, one page or several (libtiff).
    case tiff
    /// Windows bitmap.
    case bmp
    /// Windows icon or cursor.
    case ico
    /// Apple icon: every representation (PNG, JPEG 2000, RLE RGB with masks) as a page.
    case icns
    /// GIF87a / GIF89a, still or animated.
    case gif
    /// PNG, still or animated (APNG).
    case png
    /// WebP, lossy or lossless, still or animated.
    case webp
    /// AVIF, still or animated (libavif).
    case avif
    /// HEIC/HEIF stills (libheif): decoded only, as no HEVC encoder here may be linked.
    case heic
    /// JPEG XL, bare codestream or container, still or animated (libjxl).
    case jpegXL = "jpegxl"
    /// SVG documents, drawn at any scale (librsvg): decoded only, as a vector source.
    case svg

    /// The usual file-name extension (without the dot).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .jpeg2000: "jp2"
        case .tiff: "tiff"
        case .jpegXL: "jxl"
        default: rawValue
        }
    }

    /// Whether `ImageDecoder` decodes this type: always, but for the types whose C library the
    /// package was built without (its traits `OpenJPEG`, `LibTIFF`, `LibAVIF`, `LibHEIF`, `LibJXL`,
    /// `LibRSVG`).
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .bmp, .ico, .icns, .gif, .png, .webp: true
        case .jpeg2000:
            #if OpenJPEG
            true
            #else
            false
            #endif
        case .tiff:
            #if LibTIFF
            true
            #else
            false
            #endif
        case .avif:
            #if LibAVIF
            true
            #else
            false
            #endif
        case .heic:
            #if LibHEIF
            true
            #else
            false
            #endif
        case .jpegXL:
            #if LibJXL
            true
            #else
            false
            #endif
        case .svg:
            #if LibRSVG
            true
            #else
            false
            #endif
        }
    }

    /// Whether `ImageEncoder` writes this type: every decodable type but HEIC, whose HEVC
    /// encoders (x265) are GPL and cannot be linked into an MIT library, and SVG, which is a
    /// vector format pixels do not go back into.
    public var isEncodable: Bool { isDecodable && self != .heic && self != .svg }

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
        case "avif", "avifs": self = .avif
        case "heic", "heif", "heics", "hif": self = .heic
        case "jxl": self = .jpegXL
        case "svg": self = .svg
        default: return nil
        }
    }

    /// Recognises a type from the first bytes of a file (16 are enough for most; AVIF and HEIC
    /// files whose major brand is the generic `mif1` or `msf1` need their `ftyp` box, 32 bytes or
    /// more; SVG needs its `<svg` tag, within the first ``svgSniffLength`` bytes). Returns `nil`
    /// for anything else.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(64))
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
        } else if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            self = .jpegXL  // bare codestream, or the container's signature box
        } else if starts(Array("ftyp".utf8), at: 4), let type = Self.isoMediaType(brandsIn: b) {
            self = type
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if b.count >= 2, ["BM", "BA", "IC", "PI", "CI", "CP"].contains(String(decoding: b[0..<2], as: UTF8.self)) {
            self = .bmp
        } else if Self.isSVG(bytes.prefix(Self.svgSniffLength)) {
            self = .svg
        } else {
            return nil
        }
    }

    /// How far into a file an SVG's `<svg` tag is looked for (past an XML declaration, comments
    /// and a doctype).
    public static let svgSniffLength = 4096

    /// Whether `prefix` is markup (after an optional byte-order mark and white space, a `<`) with
    /// an `<svg` tag in it, as libvips recognises SVG.
    static func isSVG(_ prefix: some Collection<UInt8>) -> Bool {
        guard let bytes = markup(prefix) else { return false }
        let tag = Array("<svg".utf8)
        var index = bytes.startIndex
        while let start = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let end = start + tag.count
            if end < bytes.endIndex, Array(bytes[start..<end]) == tag,
                [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[end])
            {
                return true
            }
            index = start + 1
        }
        return false
    }

    /// Whether `prefix` could begin an SVG document: after an optional byte-order mark and white
    /// space, a `<`.
    static func startsLikeMarkup(_ prefix: some Collection<UInt8>) -> Bool { markup(prefix) != nil }

    /// `prefix` from its first `<` on, when only a byte-order mark and white space come before it.
    private static func markup(_ prefix: some Collection<UInt8>) -> ArraySlice<UInt8>? {
        var bytes = Array(prefix)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return bytes.first == UInt8(ascii: "<") ? bytes : nil
    }

    /// AVIF or HEIC from the brands of an ISO media file's `ftyp` box (major brand, then the
    /// compatible ones that fit in `b`).
    private static func isoMediaType(brandsIn b: [UInt8]) -> ImageType? {
        guard b.count >= 12 else { return nil }
        let boxSize = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        guard boxSize >= 16 else { return nil }
        var brands = [String(decoding: b[8..<12], as: UTF8.self)]
        for offset in stride(from: 16, to: min(boxSize, b.count) - 3, by: 4) {
            brands.append(String(decoding: b[offset..<(offset + 4)], as: UTF8.self))
        }
        for brand in brands {
            switch brand {
            case "avif", "avis": return .avif
            case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs": return .heic
            default: continue
            }
        }
        return nil
    }
}

import Foundation
import YYImage

/// Which format a result is written in: the one the URL names, else the first of the formats the
/// service negotiates (JPEG XL, AVIF, WebP, each switchable, in a configurable order) that the
/// client's `Accept` names, else the source's own.
struct OutputFormat: Sendable, Hashable {
    /// What decides the format, known before the source is: part of the result's cache key.
    enum Choice: Sendable, Hashable {
        /// Named by `format`/`f`/`ext` or the URL's extension.
        case named(ImageType)
        /// From `Accept`: the formats it names that negotiation may pick, in the service's order
        /// of preference; none: the source's format.
        case negotiated([ImageType])

        /// Whether the answer depends on `Accept` (so responses carry `Vary: Accept`).
        var dependsOnAccept: Bool {
            if case .negotiated = self { return true }
            return false
        }

        var cacheKey: String {
            switch self {
            case .named(let type):
                return "f=\(type.rawValue)"
            case .negotiated(let formats):
                // AVIF and WebP in the default order keep the spelling keys had before the order was configurable.
                if formats.allSatisfy({ $0 == .avif || $0 == .webp }), formats.first != .webp || formats.count == 1 {
                    return "accept=\(formats.contains(.avif) ? "avif" : "-"),\(formats.contains(.webp) ? "webp" : "-")"
                }
                return "accept=" + formats.map(\.rawValue).joined(separator: ",")
            }
        }
    }

    /// The formats the service writes: every encoder this build has, but for those browsers do not
    /// show (JPEG 2000, ICNS), and SVG, which an SVG source passes through as (sanitised).
    static let servable: [ImageType] = [.jpeg, .png, .webp, .avif, .gif, .jpegXL, .tiff, .bmp, .ico].filter(\.isEncodable) + [.svg]

    /// The choice for a request: `named` when given, else the formats of `preferred` (in its
    /// order) that `accept` names and this build writes.
    static func choice(named: ImageType?, accept: String?, preferred: [ImageType]) -> Choice {
        if let named { return .named(named) }
        let accepted = AcceptHeader(accept ?? "")
        return .negotiated(preferred.filter { $0.isEncodable && accepted.accepts(mediaType($0)) })
    }

    /// The format of the result for `choice` and a source of `sourceType`. AVIF and JPEG XL are
    /// not chosen for an animation (AVIF sequences take many times longer to encode than WebP;
    /// our JPEG XL writes stills); a source format the service does not write becomes PNG when it
    /// may hold alpha, else JPEG.
    static func resolve(_ choice: Choice, sourceType: ImageType, isAnimated: Bool) -> ImageType {
        switch choice {
        case .named(let type):
            return type
        case .negotiated(let formats):
            if let format = formats.first(where: { !isAnimated || $0 == .webp }) { return format }
            if servable.contains(sourceType) && !(sourceType == .avif && isAnimated) { return sourceType }
            if isAnimated { return .gif }
            return sourceType == .heic ? .jpeg : .png
        }
    }

    /// Whether our encoder embeds an ICC profile in `type` (JPEG, PNG and WebP stills).
    static func embedsColorProfile(_ type: ImageType) -> Bool {
        [.jpeg, .png, .webp].contains(type)
    }

    /// Whether `type` keeps every frame of an animation.
    static func keepsAnimation(_ type: ImageType) -> Bool {
        [.gif, .webp, .png, .avif].contains(type)
    }

    /// The media type of `type`.
    static func mediaType(_ type: ImageType) -> String {
        switch type {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .gif: "image/gif"
        case .jpegXL: "image/jxl"
        case .tiff: "image/tiff"
        case .bmp: "image/bmp"
        case .ico: "image/x-icon"
        case .heic: "image/heic"
        case .jpeg2000: "image/jp2"
        case .icns: "image/icns"
        case .svg: "image/svg+xml"
        }
    }
}

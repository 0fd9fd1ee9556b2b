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
        /// `format:best`: every candidate encoded, the smallest kept. The candidates are JPEG and
        /// PNG (imgproxy's preferred formats) and those negotiation may pick that `Accept` names.
        case best([ImageType])

        /// Whether the format is negotiated from `Accept` alone.
        var isNegotiated: Bool {
            if case .negotiated = self { return true }
            return false
        }

        /// Whether the answer depends on `Accept` (so responses carry `Vary: Accept`).
        var dependsOnAccept: Bool {
            switch self {
            case .named: false
            case .negotiated, .best: true
            }
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
            case .best(let formats):
                return "best=" + formats.map(\.rawValue).joined(separator: ",")
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
        return .negotiated(accepted(preferred, by: accept))
    }

    /// The `format:best` choice for a request: JPEG, PNG, and the formats of `preferred` that
    /// `accept` names and this build writes.
    static func bestChoice(accept: String?, preferred: [ImageType]) -> Choice {
        .best([.jpeg, .png] + accepted(preferred, by: accept))
    }

    /// The formats of `preferred`, in its order, that `accept` names and this build writes.
    private static func accepted(_ preferred: [ImageType], by accept: String?) -> [ImageType] {
        let header = AcceptHeader(accept ?? "")
        return preferred.filter { $0.isEncodable && header.accepts(mediaType($0)) }
    }

    /// The candidates of `choice` for a result, animated or not: for `best`, those that keep
    /// an animation, or the still formats; otherwise the one format ``resolve(_:sourceType:isAnimated:)``
    /// gives.
    static func candidates(_ choice: Choice, sourceType: ImageType, isAnimated: Bool) -> [ImageType] {
        guard case .best(let formats) = choice else { return [resolve(choice, sourceType: sourceType, isAnimated: isAnimated)] }
        // An animation keeps its frames in GIF and in WebP when the client takes it (APNG and
        // AVIF sequences are far slower to encode, for sizes WebP matches).
        return isAnimated ? [.gif] + formats.filter { $0 == .webp } : formats
    }

    /// The format of the result for `choice` and a source of `sourceType`. AVIF and JPEG XL are
    /// not chosen for an animation (AVIF sequences take many times longer to encode than WebP;
    /// our JPEG XL writes stills); a source format the service does not write becomes PNG when it
    /// may hold alpha, else JPEG.
    static func resolve(_ choice: Choice, sourceType: ImageType, isAnimated: Bool) -> ImageType {
        switch choice {
        case .named(let type):
            return type
        case .best(let formats):
            // The processing's format: one that keeps alpha and frames; the candidates are
            // encoded from its frames.
            return isAnimated ? .gif : formats.contains(.png) ? .png : formats.first ?? .png
        case .negotiated(let formats):
            if let format = formats.first(where: { !isAnimated || $0 == .webp }) { return format }
            if servable.contains(sourceType) && !(sourceType == .avif && isAnimated) { return sourceType }
            if isAnimated { return .gif }
            return sourceType == .heic ? .jpeg : .png
        }
    }

    /// Whether our encoder embeds an ICC profile in `type` (JPEG, PNG and WebP; AVIF and JPEG XL
    /// an RGB one).
    static func embedsColorProfile(_ type: ImageType) -> Bool {
        [.jpeg, .png, .webp, .avif, .jpegXL].contains(type)
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

import Foundation
import YYImage

/// Which format a result is written in: the one the URL names, else one the client's `Accept`
/// says it takes (AVIF, then WebP, each switchable), else the source's own.
struct OutputFormat: Sendable, Hashable {
    /// What decides the format, known before the source is: part of the result's cache key.
    enum Choice: Sendable, Hashable {
        /// Named by `format`/`f`/`ext` or the URL's extension.
        case named(ImageType)
        /// From `Accept`: whether AVIF and WebP may be chosen; otherwise the source's format.
        case negotiated(avif: Bool, webp: Bool)

        /// Whether the answer depends on `Accept` (so responses carry `Vary: Accept`).
        var dependsOnAccept: Bool {
            if case .negotiated = self { return true }
            return false
        }

        var cacheKey: String {
            switch self {
            case .named(let type): "f=\(type.rawValue)"
            case .negotiated(let avif, let webp): "accept=\(avif ? "avif" : "-"),\(webp ? "webp" : "-")"
            }
        }
    }

    /// The formats the service writes: every encoder this build has, but for those browsers do not
    /// show (JPEG 2000, ICNS).
    static let servable: [ImageType] = [.jpeg, .png, .webp, .avif, .gif, .jpegXL, .tiff, .bmp, .ico].filter(\.isEncodable)

    /// The choice for a request: `named` when given, else what `accept` allows of the formats
    /// the configuration lets negotiation pick.
    static func choice(named: ImageType?, accept: String?, negotiatesAVIF: Bool, negotiatesWebP: Bool) -> Choice {
        if let named { return .named(named) }
        let accepted = AcceptHeader(accept ?? "")
        return .negotiated(
            avif: negotiatesAVIF && ImageType.avif.isEncodable && accepted.accepts("image/avif"),
            webp: negotiatesWebP && accepted.accepts("image/webp"))
    }

    /// The format of the result for `choice` and a source of `sourceType`. AVIF is not chosen for an
    /// animation (encoding one takes many times longer than WebP); a source format the service
    /// does not write becomes PNG when it may hold alpha, else JPEG.
    static func resolve(_ choice: Choice, sourceType: ImageType, isAnimated: Bool) -> ImageType {
        switch choice {
        case .named(let type):
            return type
        case .negotiated(let avif, let webp):
            if avif && !isAnimated { return .avif }
            if webp { return .webp }
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
        }
    }
}

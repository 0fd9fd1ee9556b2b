import Foundation
import YYImage

/// A request path in imgproxy's forms, taken apart:
///
/// - `/%signature/%options/plain/%percent-encoded-url[@%extension]`
/// - `/%signature/%options/%base64url-encoded-url[.%extension]` (the base64 may be split by `/`)
///
/// Options are the segments before the source that hold a `:`; in presets-only mode, the one
/// segment after the signature is a `:`-separated list of preset names.
struct ProcessingURL: Sendable, Equatable {
    /// The first segment.
    var signature: String
    /// Everything after the signature, its leading `/` included: what the signature signs.
    var signedPath: String
    /// The option segments, in order.
    var optionSegments: [String]
    /// The source URL as given (decoded).
    var source: String
    /// The extension after `@` (plain) or the last `.` (base64), if any.
    var fileExtension: String?

    /// The longest path accepted (imgproxy refuses longer URLs too; Next.js caps sources at 3,072).
    static let maximumLength = 8192

    /// The signature segment of `path` and what it signs, before anything else of the path is
    /// read: a service with keys checks them first, so an unsigned path gets a 403 whatever it holds.
    static func signature(of path: String) throws(ServiceError) -> (signature: String, signedPath: String) {
        guard path.utf8.count <= Self.maximumLength else { throw .badRequest("the URL is longer than \(Self.maximumLength) bytes") }
        let segments = path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard segments.count == 3, !segments[1].isEmpty else { throw .badRequest("the URL has no signature and source") }
        let signature = String(segments[1])
        return (signature, String(path.dropFirst(signature.utf8.count + 1)))
    }

    /// `path` (the request's path, still percent-encoded) taken apart.
    init(path: String, presetsOnly: Bool = false) throws(ServiceError) {
        let (signature, signedPath) = try Self.signature(of: path)
        try self.init(signature: signature, signedPath: signedPath, presetsOnly: presetsOnly)
    }

    /// A path already split by ``signature(of:)`` taken apart.
    init(signature: String, signedPath: String, presetsOnly: Bool = false) throws(ServiceError) {
        self.signature = signature
        self.signedPath = signedPath
        var segments = signedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard !segments.isEmpty else { throw .badRequest("the URL has no signature and source") }
        var options: [String] = []
        if presetsOnly {
            // The preset names, read as one `preset` option.
            options.append("preset:" + segments.removeFirst())
        } else {
            while let first = segments.first, first != "plain", first.contains(":") {
                options.append(first)
                segments.removeFirst()
            }
        }
        optionSegments = options
        guard let first = segments.first, !first.isEmpty else { throw .badRequest("the URL has no source") }
        if first == "plain" {
            var encoded = segments.dropFirst().joined(separator: "/")
            if let at = encoded.lastIndex(of: "@") {
                fileExtension = String(encoded[encoded.index(after: at)...])
                encoded = String(encoded[..<at])
            }
            guard let decoded = encoded.removingPercentEncoding, !decoded.isEmpty else {
                throw .badRequest("the plain source is not valid percent-encoding")
            }
            source = decoded
        } else {
            var encoded = segments.joined()
            if let dot = encoded.lastIndex(of: ".") {
                fileExtension = String(encoded[encoded.index(after: dot)...])
                encoded = String(encoded[..<dot])
            }
            guard let bytes = [UInt8](base64URL: encoded), let decoded = String(bytes: bytes, encoding: .utf8), !decoded.isEmpty else {
                throw .badRequest("the source is neither plain/… nor URL-safe base64")
            }
            source = decoded
        }
        if fileExtension?.isEmpty == true { fileExtension = nil }
    }

    /// Whether the extension is `best` (imgproxy Pro's smallest-of-several format).
    var asksBestFormat: Bool { fileExtension?.lowercased() == "best" }

    /// The format the extension names, if there is one (`best` names none).
    func extensionFormat() throws(ServiceError) -> ImageType? {
        guard let fileExtension, !asksBestFormat else { return nil }
        guard let type = ImageType(fileExtension: fileExtension.lowercased()), OutputFormat.servable.contains(type) else {
            throw .badRequest("extension '\(fileExtension)' is not an output format")
        }
        return type
    }
}

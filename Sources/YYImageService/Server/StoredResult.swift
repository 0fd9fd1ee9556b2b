import Foundation
import YYImage

/// A result as the result cache keeps it: the image's format and entity tag before its bytes, so
/// that a hit from any level answers without hashing or sniffing the image again.
///
/// Layout: one byte `n`, the tag's `n` ASCII bytes (quotes included), one byte `m`, the format's
/// `m` ASCII bytes (its file extension, then `;` and the source's modification time in seconds
/// since 1970 when known), then the image.
struct StoredResult: Sendable, Equatable {
    /// The `ETag`: the image's SHA-256, URL-safe base64, quoted.
    var etag: String
    /// The image's format, as the renderer wrote it.
    var type: ImageType
    /// When the source last changed (its file's time, or its origin's `Last-Modified`).
    var lastModified: Date?
    /// The encoded image.
    var image: Data

    /// `image`, written as `type`, with the tag of its bytes.
    init(image: Data, type: ImageType, lastModified: Date? = nil) {
        self.image = image
        self.type = type
        self.lastModified = lastModified.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        etag = "\"" + SHA256Digest.of(image).base64URLEncoded + "\""
    }

    /// What the renderer made.
    init(_ output: ImageRenderer.Output) {
        self.init(image: output.data, type: output.type, lastModified: output.lastModified)
    }

    /// The result `stored` holds, or `nil` when it is not one (a truncated or foreign value,
    /// which the cache then treats as a miss).
    init?(stored: Data) {
        var rest = stored[...]
        guard let etag = Self.field(&rest), let format = Self.field(&rest), !rest.isEmpty else { return nil }
        let parts = format.split(separator: ";", maxSplits: 1).map(String.init)
        guard let type = ImageType(fileExtension: parts[0]) else { return nil }
        self.etag = etag
        self.type = type
        lastModified = parts.count == 2 ? Int64(parts[1]).map { Date(timeIntervalSince1970: TimeInterval($0)) } : nil
        image = Data(rest)
    }

    /// The bytes to store.
    var stored: Data {
        let format = type.fileExtension + (lastModified.map { ";\(Int64($0.timeIntervalSince1970))" } ?? "")
        var data = Data(capacity: 2 + etag.utf8.count + format.utf8.count + image.count)
        for field in [etag, format] {
            data.append(UInt8(field.utf8.count))
            data.append(contentsOf: field.utf8)
        }
        data.append(image)
        return data
    }

    /// A length-prefixed ASCII field taken off the front of `bytes`.
    private static func field(_ bytes: inout Data.SubSequence) -> String? {
        guard let length = bytes.first.map(Int.init), length > 0, bytes.count > length else { return nil }
        let start = bytes.startIndex + 1
        guard let text = String(bytes: bytes[start..<(start + length)], encoding: .ascii) else { return nil }
        bytes = bytes[(start + length)...]
        return text
    }
}

import Foundation
import YYImage

/// A result as the result cache keeps it: the image's bytes after its entity tag, so that a hit
/// from any level answers without hashing the image again.
///
/// Layout: one byte `n`, the tag's `n` ASCII bytes (quotes included), then the image.
struct StoredResult: Sendable, Equatable {
    /// The `ETag`: the image's SHA-256, URL-safe base64, quoted.
    var etag: String
    /// The encoded image.
    var image: Data

    /// `image` with the tag of its bytes.
    init(image: Data) {
        self.image = image
        etag = "\"" + URLSignature.base64URL(HMACSHA256.digest(image)) + "\""
    }

    /// The result `stored` holds, or `nil` when it is not one (a truncated or foreign value,
    /// which the cache then treats as a miss).
    init?(stored: Data) {
        guard let length = stored.first.map(Int.init), length > 0, stored.count > 1 + length else { return nil }
        let tagEnd = stored.startIndex + 1 + length
        guard let etag = String(bytes: stored[(stored.startIndex + 1)..<tagEnd], encoding: .ascii) else { return nil }
        self.etag = etag
        image = stored[tagEnd...]
    }

    /// The bytes to store.
    var stored: Data {
        var data = Data(capacity: 1 + etag.utf8.count + image.count)
        data.append(UInt8(etag.utf8.count))
        data.append(contentsOf: etag.utf8)
        data.append(image)
        return data
    }

    /// The image's format, read from its first bytes (our own encoders wrote them, so it is
    /// always recognised; PNG is the answer that can only be wrong for a foreign value).
    var type: ImageType { ImageType(sniffing: image) ?? .png }
}

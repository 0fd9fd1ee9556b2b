public import Foundation

/// An image the operator gives the service besides its sources: the watermark (imgproxy's
/// `IMGPROXY_WATERMARK_DATA`, `_PATH`, `_URL`) or the fallback image (`IMGPROXY_FALLBACK_IMAGE_*`).
public enum ConfiguredImage: Sendable, Hashable {
    /// The image's bytes, held by the service (a file read at start, or decoded base64).
    case data(Data)
    /// A source URL (`http(s)://` or `local:///`), fetched like a source: through the address
    /// guard, the allow-list and the byte limit, and cached like an original.
    case url(String)

    /// What names this image in result keys: the URL, or a digest of the bytes.
    var identity: String {
        switch self {
        case .data(let data): "sha256:" + SHA256Digest.of(Array(data)).hexEncoded
        case .url(let url): url
        }
    }
}

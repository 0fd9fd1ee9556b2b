public import Foundation

/// Where the service's watermark image comes from (imgproxy's `IMGPROXY_WATERMARK_DATA`,
/// `_PATH` and `_URL`); the `watermark` option draws it.
public enum WatermarkImage: Sendable, Hashable {
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

import Foundation
import YYImage

/// Decodes previews of a download as it grows (progressive JPEG scans, interlaced PNG passes,
/// the rows of GIF frame 0) with one incremental decoder.
final class PreviewMaker: Sendable {
    private let decoder: ImageDecoder

    init(options: ImageDecoder.Options) {
        decoder = ImageDecoder(options: options)
    }

    /// Frame 0 as far as `prefix` (all bytes so far) shows it; `nil` until the size is known or
    /// when the partial data is refused.
    func preview(of prefix: Data) -> Bitmap? {
        guard (try? decoder.update(data: prefix, final: false)) == true else { return nil }
        return try? decoder.frame(at: 0)
    }
}

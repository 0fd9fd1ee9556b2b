import Foundation
import Hummingbird
import YYImage

/// The JSON of `/info`: what a source is, read from its header and frame table.
struct SourceInfo: Encodable, Equatable {
    var format: String
    var mimeType: String
    /// The upright size.
    var width: Int
    var height: Int
    var frames: Int
    /// Seconds per frame.
    var durations: [Double]
    var loopCount: Int
    var bytes: Int
    /// The EXIF orientation, 1...8.
    var orientation: Int

    /// The description of `data`, decoded no further than its frame table.
    init(describing data: Data, maxPixels: Int) throws(ServiceError) {
        var options = ImageDecoder.Options()
        options.maxPixelCount = maxPixels
        do throws(ImageError) {
            let decoder = try ImageDecoder(data: data, options: options)
            format = decoder.type?.rawValue ?? "unknown"
            mimeType = decoder.type.map(OutputFormat.mediaType) ?? ""
            (width, height) = (decoder.orientedWidth, decoder.orientedHeight)
            frames = decoder.frameCount
            durations = decoder.frameInfos.map(\.duration)
            loopCount = decoder.loopCount
            bytes = data.count
            orientation = decoder.orientation.rawValue
        } catch {
            throw ImageRenderer.serviceError(for: error)
        }
    }

    /// The response: the JSON, cacheable for an hour.
    static func response(describing data: Data, maxPixels: Int) throws(ServiceError) -> Response {
        JSONBody.response(try SourceInfo(describing: data, maxPixels: maxPixels), cacheControl: "public, max-age=3600")
    }
}

import Foundation
import Hummingbird
import YYImage

/// The JSON of `/info`: what a source is (format, size, frames, pages), what its metadata says,
/// and what its picture looks like in brief (average and dominant colour, BlurHash, ThumbHash),
/// from its first frame decoded upright in sRGB at 100 pixels a side at most.
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
    /// A TIFF's directories or an ICNS file's sizes; 1 for other files.
    var pages: Int
    /// Bits per colour sample as the file stores them (16 for a 16-bit PNG, 10 for a 10-bit AVIF).
    var bitDepth: Int
    /// Whether the first frame has a pixel that is not opaque.
    var hasAlpha: Bool
    /// The mean of the first frame's pixels, and the most common colour (in 4-bit steps, of the
    /// pixels at least half opaque), as `#rrggbbaa` and `#rrggbb`.
    var averageColor: String
    var dominantColor: String
    /// BlurHash with 4 × 3 components, ThumbHash in base64.
    var blurhash: String
    var thumbhash: String
    /// What EXIF says, when the file has it.
    var exif: EXIF?
    var hasXmp: Bool
    var hasIptc: Bool
    /// The ICC profile's description, when it has one.
    var colorProfile: String?

    /// EXIF's camera and date, and whether it has a GPS position.
    struct EXIF: Encodable, Equatable {
        var make: String?
        var model: String?
        var dateTaken: String?
        var hasGps: Bool
    }

    /// The description of `data`, whose first frame is decoded small.
    init(describing data: Data, maxPixels: Int) throws(ServiceError) {
        var options = ImageDecoder.Options()
        options.maxPixelCount = maxPixels
        options.convertsToSRGB = true
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
            pages = max(1, decoder.pageCount)
            bitDepth = decoder.bitDepth
            let metadata = ImageMetadataSummary(decoder: decoder, bytes: [UInt8](data))
            exif =
                metadata.hasEXIF
                ? EXIF(make: metadata.cameraMake, model: metadata.cameraModel, dateTaken: metadata.dateTaken, hasGps: metadata.hasGPS) : nil
            hasXmp = metadata.hasXMP
            hasIptc = metadata.hasIPTC
            colorProfile = metadata.colorProfileDescription
            let picture = try Self.thumbnail(decoder)
            hasAlpha = !picture.isOpaque
            (averageColor, dominantColor) = Self.colors(of: picture)
            blurhash = try BlurHash.encode(picture)
            thumbhash = Data(try ThumbHash.encode(picture)).base64EncodedString()
        } catch {
            throw ImageRenderer.serviceError(for: error)
        }
    }

    /// The first frame, upright, at most 100 pixels a side (ThumbHash's limit, and plenty for
    /// colours and BlurHash).
    private static func thumbnail(_ decoder: ImageDecoder) throws(ImageError) -> Bitmap {
        let frame = try decoder.frame(at: 0, shrinkOnLoad: 100)
        guard max(frame.width, frame.height) > 100 else { return frame.converted(to: .straight) }
        let fit = ProcessingChain([.resize(Resize(width: 100, height: 100, fit: .inside))])
        return try fit.apply(to: frame, decodedFrom: nil, checkpoint: {}).converted(to: .straight)
    }

    /// The mean colour (alpha included) and the most common colour in 4-bit steps (the mean of
    /// that step's pixels) of the pixels at least half opaque; black when there are none.
    private static func colors(of picture: Bitmap) -> (average: String, dominant: String) {
        let pixels = picture.packedPixels
        var sums = [Int](repeating: 0, count: 4)
        var buckets: [Int: (count: Int, r: Int, g: Int, b: Int)] = [:]
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<4 { sums[c] += Int(pixels[i + c]) }
            guard pixels[i + 3] >= 128 else { continue }
            let (r, g, b) = (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
            let key = (r >> 4) << 8 | (g >> 4) << 4 | b >> 4
            let old = buckets[key] ?? (0, 0, 0, 0)
            buckets[key] = (old.count + 1, old.r + r, old.g + g, old.b + b)
        }
        let count = max(1, pixels.count / 4)
        let average = RGBA(UInt8(sums[0] / count), UInt8(sums[1] / count), UInt8(sums[2] / count), UInt8(sums[3] / count))
        // The most pixels, ties to the lowest key, so that the answer never depends on hashing.
        let top = buckets.max { $0.value.count != $1.value.count ? $0.value.count < $1.value.count : $0.key > $1.key }?.value
        let dominant = top.map { RGBA(UInt8($0.r / $0.count), UInt8($0.g / $0.count), UInt8($0.b / $0.count)) } ?? RGBA(0, 0, 0)
        return ("#" + average.hex, "#" + String(dominant.hex.prefix(6)))
    }

    /// The response: the JSON, cacheable for an hour.
    static func response(_ info: SourceInfo) -> Response {
        JSONBody.response(info, cacheControl: "public, max-age=3600")
    }
}

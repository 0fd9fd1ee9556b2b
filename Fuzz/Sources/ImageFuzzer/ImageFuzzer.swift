// libFuzzer entry for YYImage's decoders: type sniffing, every container (PNG/APNG, GIF, JPEG,
// WebP, BMP, ICO, ICNS, and on their C libraries TIFF, JPEG 2000, AVIF, HEIC, JPEG XL, SVG), pages,
// shrink-on-load, the frame compositor and colour profiles (Little CMS). Every input must decode or throw `ImageError`, within
// the limits below; the first byte of the input picks how it is fed (at once, or in two parts as
// a download would) and whether frames are downsampled.
import Foundation
import FuzzDriver
import YYImage

@main
enum ImageFuzzer {
    static func main() { exit(runFuzzer(testOneInput)) }
}

/// One input.
private func fuzzImage(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 1 else { return 0 }
    let mode = start[0]
    let data = Data(UnsafeBufferPointer(start: start + 1, count: count - 1))
    var options = ImageDecoder.Options()
    // Small enough that a header claiming a huge canvas is refused before it costs much memory.
    options.maxPixelCount = 1 << 22
    options.maxTotalFrameBytes = 64 << 20
    if mode & 0b10 != 0 { options.maxPixelSize = Int(mode >> 4) + 1 }
    // Shrink-on-load (JPEG, WebP, JPEG 2000 resolution levels) when downsampling is off.
    if mode & 0b10 == 0, mode & 0b0111_0000 != 0 { options.shrinkOnLoad = Int(mode >> 4 & 0b111) * 8 }
    if mode & 0b100 != 0 { options.alphaMode = .premultiplied }
    // SVG is drawn at ½, 1, 1½ … 3½ times its size by the same bits.
    options.vectorScale = max(0.5, Double(mode >> 4 & 0b111) / 2)
    options.appliesOrientation = mode & 0b1000 != 0
    // Embedded ICC profiles go through Little CMS.
    options.convertsToSRGB = mode & 0b1000_0000 != 0
    let decoder = ImageDecoder(options: options)
    do {
        if mode & 1 != 0 {
            // As a download would: a prefix first (frame 0 from partial data), then the rest.
            let cut = data.count / 2
            if try decoder.update(data: data.prefix(cut), final: false), decoder.frameCount > 0 {
                _ = try? decoder.frame(at: 0)
            }
        }
        try decoder.update(data: data, final: true)
        // Each frame is first stopped by a checkpoint after a few asks, then decoded whole: a
        // stop inside a codec (libpng's rows, libjxl's runner) must leave the decoder usable.
        let stopAfter = data.count % 4 + 1
        for index in 0..<min(decoder.frameCount, 64) {
            _ = try decoder.frameInfo(at: index)
            var asks = 0
            _ = try? decoder.frame(at: index, shrinkOnLoad: nil) { () throws(ImageError) in
                asks += 1
                if asks >= stopAfter { throw .cancelled }
            }
            _ = try decoder.frame(at: index)
        }
        for index in 1..<max(1, min(decoder.pageCount, 16)) {
            _ = try decoder.page(at: index)
        }
    } catch {
        // A typed error is the right answer to bad bytes.
    }
    return 0
}

private let testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt = { start, count in
    guard let start else { return 0 }
    return fuzzImage(start, count)
}

import CGIFRaw
import CPNGRaw
import CTurboJPEGRaw
import CWebPRaw
import Foundation

/// The C libraries called directly, the way an application without YYImage would: the floor
/// YYImage's decoders are measured against. Each returns RGBA8 pixels.
enum RawDecoders {
    /// libpng's simplified API.
    static func png(_ bytes: [UInt8]) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        _ = bytes.withUnsafeBufferPointer { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        image.format = RAW_PNG_FORMAT_RGBA
        var out = [UInt8](repeating: 0, count: Int(image.width * image.height * 4))
        _ = out.withUnsafeMutableBufferPointer { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        return out
    }

    /// TurboJPEG.
    static func jpeg(_ bytes: [UInt8]) -> [UInt8] {
        let handle = tjInitDecompress()
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        _ = bytes.withUnsafeBufferPointer { tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace) }
        var out = [UInt8](repeating: 0, count: Int(width * height * 4))
        _ = out.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer {
                tjDecompress2(handle, $0.baseAddress, UInt($0.count), output.baseAddress, width, 0, height, Int32(TJPF_RGBA.rawValue), 0)
            }
        }
        return out
    }

    /// `WebPDecodeRGBA` for a still image.
    static func webp(_ bytes: [UInt8]) -> Int {
        var width: Int32 = 0, height: Int32 = 0
        guard let pixels = bytes.withUnsafeBufferPointer({ WebPDecodeRGBA($0.baseAddress, $0.count, &width, &height) }) else { return 0 }
        defer { WebPFree(pixels) }
        return Int(pixels[0])
    }

    /// libwebp's own animation decoder over every frame (sequential, composited).
    static func webpAnimationLoop(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var options = WebPAnimDecoderOptions()
            _ = WebPAnimDecoderOptionsInit(&options)
            options.color_mode = WEBP_CSP_MODE(1)  // MODE_RGBA
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { return 0 }
            defer { WebPAnimDecoderDelete(decoder) }
            var frames = 0
            var pixels: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            while WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0 { frames += 1 }
            return frames
        }
    }

    /// giflib's `DGifSlurp` plus a plain compositor (disposal none/background/previous,
    /// transparency, clipping): every canvas of the animation.
    static func gifAnimationLoop(_ bytes: [UInt8]) -> Int {
        final class Reader { let bytes: [UInt8]; var offset = 0; init(_ bytes: [UInt8]) { self.bytes = bytes } }
        let reader = Reader(bytes)
        var error: Int32 = 0
        let read: InputFunc = { file, buffer, length in
            let reader = Unmanaged<Reader>.fromOpaque(file!.pointee.UserData).takeUnretainedValue()
            let count = min(Int(length), reader.bytes.count - reader.offset)
            reader.bytes.withUnsafeBufferPointer { source in
                buffer!.update(from: source.baseAddress! + reader.offset, count: count)
            }
            reader.offset += count
            return Int32(count)
        }
        guard let gif = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), read, &error) else { return 0 }
        defer { DGifCloseFile(gif, &error) }
        guard DGifSlurp(gif) == GIF_OK else { return 0 }
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var saved: [UInt8]? = nil
        var previousDisposal: Int32 = 0
        var previousRect = (0, 0, 0, 0)
        for index in 0..<Int(gif.pointee.ImageCount) {
            let image = gif.pointee.SavedImages[index]
            var control = GraphicsControlBlock()
            control.TransparentColor = -1
            _ = DGifSavedExtensionToGCB(gif, Int32(index), &control)
            // Dispose the previous frame.
            if previousDisposal == 2 {
                for y in previousRect.1..<previousRect.3 {
                    for x in previousRect.0..<previousRect.2 { canvas.withUnsafeMutableBufferPointer { $0[(y * width + x) * 4 + 3] = 0 } }
                }
            } else if previousDisposal == 3, let saved {
                canvas = saved
            }
            let desc = image.ImageDesc
            let x0 = max(0, Int(desc.Left)), y0 = max(0, Int(desc.Top))
            let x1 = min(width, Int(desc.Left) + Int(desc.Width)), y1 = min(height, Int(desc.Top) + Int(desc.Height))
            saved = control.DisposalMode == 3 ? canvas : nil
            guard let map = desc.ColorMap ?? gif.pointee.SColorMap else { continue }
            let colors = map.pointee.Colors!
            canvas.withUnsafeMutableBufferPointer { out in
                for y in y0..<max(y0, y1) {
                    for x in x0..<max(x0, x1) {
                        let index = Int(image.RasterBits[(y - Int(desc.Top)) * Int(desc.Width) + (x - Int(desc.Left))])
                        if index == Int(control.TransparentColor) || index >= Int(map.pointee.ColorCount) { continue }
                        let color = colors[index]
                        let o = (y * width + x) * 4
                        out[o] = color.Red; out[o + 1] = color.Green; out[o + 2] = color.Blue; out[o + 3] = 255
                    }
                }
            }
            previousDisposal = control.DisposalMode
            previousRect = (x0, y0, max(x0, x1), max(y0, y1))
        }
        return Int(canvas[0])
    }
}

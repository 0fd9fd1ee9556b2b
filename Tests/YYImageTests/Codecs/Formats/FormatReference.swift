import Foundation
import TestSupport
import Testing

@testable import YYImage

/// The reference encoders and decoders of the format tests (Debian's tools for each library,
/// installed by `scripts/setup --reference`) and the pictures the tests run through them.
enum FormatReference {
    /// The path of tool `name`, or `nil` when it is not installed.
    static func tool(_ name: String) -> String? { ChildProcess.systemExecutable(name) }

    /// Whether every tool in `names` is installed (and Pillow, which reads their output).
    static func has(_ names: String...) -> Bool {
        PillowReference.isAvailable && names.allSatisfy { tool($0) != nil }
    }

    /// Runs tool `name`; throws with its error output when it fails.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> ChildProcess.Output {
        guard let path = tool(name) else { throw ReferenceFailure(text: "\(name) is not installed") }
        let output = try ChildProcess.run(path, arguments)
        guard output.status == 0, !output.terminatedBySignal else {
            throw ReferenceFailure(text: "\(name) \(arguments.joined(separator: " ")) failed (\(output.status)): \(output.standardError)")
        }
        return output
    }

    /// A failed reference step.
    struct ReferenceFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    /// A picture with smooth gradients, hard edges and (when `alpha`) a soft transparent
    /// corner: enough to tell rounding, channel order, orientation and alpha apart.
    static func picture(width: Int = 67, height: Int = 45, alpha: Bool = true) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                bitmap.pixels[offset] = UInt8(x * 255 / max(1, width - 1))
                bitmap.pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                bitmap.pixels[offset + 2] = (x / 8 + y / 8) % 2 == 0 ? 40 : 220
                bitmap.pixels[offset + 3] = alpha && x + y < 30 ? UInt8(x * 8 + y) : 255
            }
        }
        return bitmap
    }

    /// `bitmap` as a PNG file at `path` (our PNG writer, tested against libpng and Pillow).
    static func writePNG(_ bitmap: Bitmap, to path: String) throws {
        var encoder = ImageEncoder(type: .png)
        encoder.alwaysWritesAlpha = true
        encoder.addFrame(bitmap)
        try encoder.encode().write(to: URL(fileURLWithPath: path))
    }

    /// The picture Pillow reads from `path` (a reference tool's PNG or TIFF output), straight
    /// RGBA unless Pillow keeps it premultiplied.
    static func pillow(_ path: String) throws -> (frame: ReferenceFrame, premultiplied: Bool) {
        try PillowReference.raw(path)
    }

    /// The first frame of the file at `path`, decoded by YYImage.
    static func ours(_ path: String, options: ImageDecoder.Options = ImageDecoder.Options()) throws -> Bitmap {
        try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: path)), options: options).frame(at: 0)
    }

    /// The mean absolute channel difference of two same-size pictures (for lossy codecs).
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        let x = a.converted(to: .straight).packedPixels, y = b.converted(to: .straight).packedPixels
        guard x.count == y.count, !x.isEmpty else { return .infinity }
        var total = 0
        for index in x.indices { total += abs(Int(x[index]) - Int(y[index])) }
        return Double(total) / Double(x.count)
    }

    /// A reference frame as a bitmap.
    static func bitmap(_ frame: ReferenceFrame, premultiplied: Bool = false) -> Bitmap {
        Bitmap(width: frame.width, height: frame.height, alphaMode: premultiplied ? .premultiplied : .straight, pixels: frame.rgba)!
    }
}

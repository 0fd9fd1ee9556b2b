import CPNG
import Foundation
import TestSupport

/// libpng's own decoding, through its simplified API (none of our code on the path): the
/// reference for PngSuite and for PNG files written by other tools.
enum LibPNGReference {
    /// Straight RGBA8 pixels, or `nil` when libpng refuses the file.
    static func decode(_ data: Data) -> (width: Int, height: Int, rgba: [UInt8])? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let bytes = [UInt8](data)
        guard bytes.withUnsafeBufferPointer({ png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }) != 0 else { return nil }
        image.format = CPNG_FORMAT_RGBA
        var rgba = [UInt8](repeating: 0, count: Int(image.width * image.height * 4))
        let ok = rgba.withUnsafeMutableBufferPointer { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { png_image_free(&image); return nil }
        return (Int(image.width), Int(image.height), rgba)
    }
}

/// apngdis (the APNG Disassembler from the APNG project): writes every APNG frame composited
/// on the canvas as a PNG, which libpng then reads.
enum APNGDisassembler {
    static let executable = ["/usr/bin/apngdis", "/usr/local/bin/apngdis"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isAvailable: Bool { executable != nil }
    static let missingReason = "apngdis is not installed: run scripts/setup --reference"

    static func frames(of path: String) throws -> [(width: Int, height: Int, rgba: [UInt8])] {
        let folder = TemporaryDirectory("apngdis")
        let input = folder.appending("input.png")
        try FileManager.default.copyItem(atPath: path, toPath: input)
        let result = try ChildProcess.run(executable!, [input, "frame"])
        guard result.status == 0 else { throw CocoaError(.fileReadCorruptFile) }
        var frames: [(Int, Int, [UInt8])] = []
        for index in 1... {
            // apngdis pads the frame number to the width of the frame count.
            let names = (1...4).map { folder.appending("frame" + String(repeating: "0", count: max(0, $0 - String(index).count)) + "\(index).png") }
            guard let name = names.first(where: { FileManager.default.fileExists(atPath: $0) }),
                  let decoded = LibPNGReference.decode(try Data(contentsOf: URL(fileURLWithPath: name))) else { break }
            frames.append(decoded)
        }
        return frames
    }
}

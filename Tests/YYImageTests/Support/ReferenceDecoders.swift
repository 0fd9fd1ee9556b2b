import CPNG
import Foundation
import TestSupport

@testable import YYImage

/// libpng's own decoding, through its simplified API (none of our code on the path): the
/// reference for PngSuite and for PNG files written by other tools.
enum LibPNGReference {
    /// Straight RGBA8 pixels of the stored samples (no gamma conversion), or `nil` when libpng
    /// refuses the file. The simplified API converts any gamma to sRGB; to get the stored
    /// samples the colour-space chunks are replaced by an sRGB gAMA before it reads the file.
    static func decodeStoredSamples(_ data: Data) -> ReferenceFrame? {
        let bytes = [UInt8](data)
        guard bytes.count > 8 else { return decode(data) }
        var out = Array(bytes[0..<8])
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let end = offset + 12 + length
            guard end <= bytes.count else { return decode(data) }
            if !["gAMA", "sRGB", "iCCP", "cHRM"].contains(type) { out.append(contentsOf: bytes[offset..<end]) }
            if type == "IHDR" {
                // gAMA 45455 (1/2.2) is what libpng takes for sRGB: no conversion.
                let gama: [UInt8] = [0, 0, 0, 4, 0x67, 0x41, 0x4D, 0x41, 0, 0, 0xB1, 0x8F]
                let value = CRC32.checksum(gama[4...])
                let crc = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
                out.append(contentsOf: gama + crc)
            }
            offset = end
        }
        return decode(Data(out))
    }

    /// Straight RGBA8 pixels as the simplified API gives them (converted to sRGB), or `nil`
    /// when libpng refuses the file.
    static func decode(_ data: Data) -> ReferenceFrame? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let bytes = [UInt8](data)
        guard bytes.withUnsafeBufferPointer({ png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }) != 0 else { return nil }
        image.format = CPNG_FORMAT_RGBA
        var rgba = [UInt8](repeating: 0, count: Int(image.width * image.height * 4))
        let ok = rgba.withUnsafeMutableBufferPointer { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { png_image_free(&image); return nil }
        return ReferenceFrame(width: Int(image.width), height: Int(image.height), rgba: rgba)
    }
}

/// apngdis (the APNG Disassembler from the APNG project): writes every APNG frame composited
/// on the canvas as a PNG, which libpng then reads.
enum APNGDisassembler {
    static let executable = ChildProcess.systemExecutable("apngdis")
    static var isAvailable: Bool { executable != nil }
    static let missingReason = "apngdis is not installed: run scripts/setup --reference"

    static func frames(of path: String) throws -> [ReferenceFrame] {
        let folder = TemporaryDirectory("apngdis")
        let input = folder.appending("input.png")
        try FileManager.default.copyItem(atPath: path, toPath: input)
        let result = try ChildProcess.run(executable!, [input, "frame"])
        guard result.status == 0 else { throw CocoaError(.fileReadCorruptFile) }
        var frames: [ReferenceFrame] = []
        for index in 1... {
            // apngdis pads the frame number to the width of the frame count.
            let names = (1...4).map { folder.appending("frame" + String(repeating: "0", count: max(0, $0 - String(index).count)) + "\(index).png") }
            guard let name = names.first(where: { FileManager.default.fileExists(atPath: $0) }),
                let decoded = LibPNGReference.decode(try Data(contentsOf: URL(fileURLWithPath: name)))
            else { break }
            frames.append(decoded)
        }
        return frames
    }
}

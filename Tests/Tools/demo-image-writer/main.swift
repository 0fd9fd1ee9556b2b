// Writes the images scripts/demo works on when YYKit's samples (../shared/testdata) are absent,
// with YYImage's own encoders: animations in each animated format and stills in the others.
//   demo-image-writer FOLDER
import Foundation
import YYImage

/// One frame of a small animation: a gradient that drifts with `phase` and a dot circling the centre.
func frame(size: Int, phase: Double) -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: size * size * 4)
    let centre = Double(size) / 2, radius = Double(size) * 0.3, dotRadius = Double(size) * 0.12
    let dotX = centre + radius * cos(phase * 2 * .pi), dotY = centre + radius * sin(phase * 2 * .pi)
    for y in 0..<size {
        for x in 0..<size {
            let offset = (y * size + x) * 4
            let distance = ((Double(x) - dotX) * (Double(x) - dotX) + (Double(y) - dotY) * (Double(y) - dotY)).squareRoot()
            if distance < dotRadius {
                pixels[offset] = 250; pixels[offset + 1] = 200; pixels[offset + 2] = 40
            } else {
                let shift = Int(phase * 255)
                pixels[offset] = UInt8((x * 255 / size + shift) % 256)
                pixels[offset + 1] = UInt8(y * 200 / size)
                pixels[offset + 2] = UInt8(160 - (x * 100 / size))
            }
        }
    }
    return Bitmap(width: size, height: size, pixels: pixels)!
}

/// An animation of `frames` frames, one loop of the dot, `duration` seconds per frame.
func animation(_ type: ImageType, frames: Int, size: Int, duration: Double) throws -> Data {
    var encoder = ImageEncoder(type: type)
    for index in 0..<frames { encoder.addFrame(frame(size: size, phase: Double(index) / Double(frames)), duration: duration) }
    return try encoder.encode()
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: demo-image-writer FOLDER\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let files: [(String, Data)] = [
        ("spinner.png", try animation(.png, frames: 24, size: 96, duration: 0.04)),  // APNG
        // Larger than the demo's 160x120 cover, which does not enlarge.
        ("spinner.webp", try animation(.webp, frames: 12, size: 200, duration: 0.07)),
        ("spinner.gif", try animation(.gif, frames: 16, size: 96, duration: 0.06)),
        ("still.png", try ImageEncoder.encode(frame(size: 160, phase: 0.1), as: .png)),
        ("still.jpg", try ImageEncoder.encode(frame(size: 160, phase: 0.3), as: .jpeg, quality: 0.85)),
        ("still.bmp", try ImageEncoder.encode(frame(size: 48, phase: 0.5), as: .bmp)),
        ("icon.ico", try ImageEncoder.encode(frame(size: 32, phase: 0.7), as: .ico)),
    ]
    for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
    print("wrote \(files.count) images to \(folder.path)")
} catch {
    FileHandle.standardError.write(Data("demo-image-writer: \(error)\n".utf8))
    exit(1)
}

/// Writes Apple icon files: each image a PNG element of its type (`icp4`…`ic14`).
enum ICNSWriter {
    /// The icon file for `images`. One image becomes the standard set: every side from 16 up
    /// to its longest side (at least 16), each made from it with the default resampler and
    /// centred on a transparent square. Several images are written as they are, each of them
    /// square with a standard side (16, 32, 64, 128, 256, 512 or 1024).
    static func write(_ images: [Bitmap]) throws(ImageError) -> [UInt8] {
        var squares: [Bitmap] = []
        if images.count == 1 {
            let source = images[0]
            let longest = max(source.width, source.height)
            for side in ICNSElement.standardSides where side <= max(16, longest) {
                let fit = Resize(width: side, height: side, fit: .contain, enlarge: true)
                squares.append(try fit.apply(to: source))
            }
        } else {
            for image in images {
                guard image.width == image.height, ICNSElement.standardSides.contains(image.width) else {
                    throw .invalidInput(
                        "an ICNS icon of \(image.width)x\(image.height) pixels: each image must be square, with a side of 16, 32, 64, 128, 256, 512 or 1024"
                    )
                }
                squares.append(image)
            }
        }
        var elements: [UInt8] = []
        var written = Set<String>()
        for square in squares {
            let png = try PNGWriter.encode(square, withAlpha: true, level: PNGWriter.defaultLevel, iccProfile: nil, exif: nil, xmp: nil)
            for type in ICNSElement.types(forSide: square.width) where written.insert(type).inserted {
                elements += Array(type.utf8) + bigEndian(UInt32(png.count + 8)) + png
            }
        }
        return Array("icns".utf8) + bigEndian(UInt32(elements.count + 8)) + elements
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

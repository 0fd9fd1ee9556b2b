/// What the element types of an Apple icon file hold.
enum ICNSElement {
    /// How an element stores its pixels.
    enum Payload: Equatable {
        /// A PNG or JPEG 2000 file (which one is told by its first bytes), or for `ic04`/`ic05`
        /// possibly "ARGB" and run-length coded channels.
        case file
        /// Run-length coded R, G and B channels; alpha comes from the `mask` element.
        case packedRGB(mask: String)
    }

    /// The known colour elements: type, nominal side in pixels, payload.
    static let kinds: [String: (side: Int, payload: Payload)] = [
        "is32": (16, .packedRGB(mask: "s8mk")), "il32": (32, .packedRGB(mask: "l8mk")),
        "ih32": (48, .packedRGB(mask: "h8mk")), "it32": (128, .packedRGB(mask: "t8mk")),
        "icp4": (16, .file), "icp5": (32, .file), "icp6": (64, .file),
        "ic04": (16, .file), "ic05": (32, .file), "ic07": (128, .file), "ic08": (256, .file),
        "ic09": (512, .file), "ic10": (1024, .file), "ic11": (32, .file), "ic12": (64, .file),
        "ic13": (256, .file), "ic14": (512, .file),
    ]

    /// The element types written for a square image of `side` pixels, PNG payloads: the
    /// 1x type and, where the side is a Retina size, the 2x type of half that side.
    static func types(forSide side: Int) -> [String] {
        switch side {
        case 16: ["icp4"]
        case 32: ["icp5", "ic11"]
        case 64: ["icp6", "ic12"]
        case 128: ["ic07"]
        case 256: ["ic08", "ic13"]
        case 512: ["ic09", "ic14"]
        case 1024: ["ic10"]
        default: []
        }
    }

    /// The sides an icon set has, smallest first.
    static let standardSides = [16, 32, 64, 128, 256, 512, 1024]

    /// Decodes Apple's PackBits variant into `count` bytes: a byte n < 128 copies the next n + 1
    /// bytes, n >= 128 repeats the next byte n - 125 times. Returns the bytes and where the
    /// input stopped, or `nil` when the input ends first.
    static func unpack(_ input: ArraySlice<UInt8>, count: Int) -> (bytes: [UInt8], end: Int)? {
        var output = [UInt8]()
        output.reserveCapacity(count)
        var index = input.startIndex
        while output.count < count {
            guard index < input.endIndex else { return nil }
            let code = Int(input[index])
            index += 1
            if code < 0x80 {
                let run = code + 1
                guard index + run <= input.endIndex else { return nil }
                output.append(contentsOf: input[index..<(index + run)].prefix(count - output.count))
                index += run
            } else {
                guard index < input.endIndex else { return nil }
                output.append(contentsOf: repeatElement(input[index], count: min(code - 125, count - output.count)))
                index += 1
            }
        }
        return (output, index)
    }
}

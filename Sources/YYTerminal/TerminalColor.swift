import YYImage

/// How many colours a terminal takes in SGR sequences.
package enum TerminalColorMode: Sendable, Equatable {
    /// 24-bit colour (`38;2;r;g;b`), when `COLORTERM` says `truecolor` or `24bit`.
    case trueColor
    /// The xterm 256-colour palette (`38;5;n`).
    case palette256

    /// The mode a terminal with this environment supports.
    package static func detect(environment: [String: String]) -> TerminalColorMode {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        return colorTerm.contains("truecolor") || colorTerm.contains("24bit") ? .trueColor : .palette256
    }
}

/// An opaque colour.
package struct RGB: Sendable, Hashable {
    /// Red.
    package var r: UInt8
    /// Green.
    package var g: UInt8
    /// Blue.
    package var b: UInt8

    /// A colour.
    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// `pixel` (straight alpha) over this colour; `nil` for a fully transparent pixel, which
    /// shows the terminal's own background.
    func composite(_ pixel: RGBA) -> RGB? {
        switch pixel.a {
        case 0: return nil
        case 255: return RGB(pixel.r, pixel.g, pixel.b)
        default:
            let alpha = UInt32(pixel.a)
            func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
                UInt8((UInt32(top) * alpha + UInt32(bottom) * (255 - alpha) + 127) / 255)
            }
            return RGB(mix(pixel.r, r), mix(pixel.g, g), mix(pixel.b, b))
        }
    }
}

/// The xterm 256-colour palette: 16 system colours (left alone: terminals redefine them), a
/// 6×6×6 cube from 16 and 24 greys from 232.
package enum XtermPalette {
    /// The cube's levels per channel.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The colour of palette entry `index`, 16...255 (the cube and the greys). Entries 0–15 are
    /// each terminal's own, unknown here: an index outside the range gives the nearest entry's
    /// colour (it trapped, on an array index or a `UInt8` overflow).
    package static func color(of index: Int) -> RGB {
        let index = min(255, max(16, index))
        if index >= 232 {
            let level = UInt8(8 + 10 * (index - 232))
            return RGB(level, level, level)
        }
        let cube = index - 16
        return RGB(UInt8(cubeLevels[cube / 36]), UInt8(cubeLevels[(cube / 6) % 6]), UInt8(cubeLevels[cube % 6]))
    }

    /// The entry nearest to `color`: the nearer of its cube colour and its grey.
    package static func index(of color: RGB) -> Int {
        func level(_ value: UInt8) -> Int {
            // Nearest cube level: 0 below 48, then steps of 40 from 95.
            let value = Int(value)
            return value < 48 ? 0 : value < 115 ? 1 : min(5, (value - 35) / 40)
        }
        let cube = 16 + 36 * level(color.r) + 6 * level(color.g) + level(color.b)
        let average = (Int(color.r) + Int(color.g) + Int(color.b)) / 3
        let grey = 232 + min(23, max(0, (average - 3) / 10))
        return distance(color, to: Self.color(of: grey)) < distance(color, to: Self.color(of: cube)) ? grey : cube
    }

    private static func distance(_ a: RGB, to b: RGB) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return dr * dr + dg * dg + db * db
    }
}

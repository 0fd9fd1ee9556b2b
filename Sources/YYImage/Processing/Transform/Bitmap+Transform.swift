extension Bitmap {
    /// Turned clockwise by `turn` (as sharp and ImageMagick turn).
    public func rotated(_ turn: QuarterTurn) -> Bitmap {
        switch turn {
        case .clockwise90: oriented(.right)
        case .half: oriented(.down)
        case .clockwise270: oriented(.left)
        }
    }

    /// Mirrored top to bottom (sharp's `flip`).
    public func flipped() -> Bitmap { oriented(.downMirrored) }

    /// Mirrored left to right (sharp's `flop`).
    public func flopped() -> Bitmap { oriented(.upMirrored) }

    /// Padded with `background` by the given number of pixels on each side.
    public func extended(top: Int, left: Int, bottom: Int, right: Int, background: RGBA) throws(ImageError) -> Bitmap {
        for (name, value) in [("top", top), ("left", left), ("bottom", bottom), ("right", right)] where value < 0 {
            throw .invalidParameter(name: "extend", "the \(name) padding is \(value); give 0 or more pixels")
        }
        let (newWidth, o1) = width.addingReportingOverflow(left &+ right)
        let (newHeight, o2) = height.addingReportingOverflow(top &+ bottom)
        guard !o1, !o2 else { throw .invalidParameter(name: "extend", "the padded size overflows") }
        try ProcessingLimits.checkOutput(width: newWidth, height: newHeight)
        var out = Bitmap(filledWith: background, width: newWidth, height: newHeight, alphaMode: alphaMode)
        out.draw(self, atX: left, y: top)
        return out
    }

    /// The bitmap without a border of `background` (default: the colour of its top-left pixel):
    /// every side loses the rows or columns whose samples all lie within `threshold` of it. With
    /// `equalHorizontal` the left and right lose the same, the smaller of the two (and so with
    /// `equalVertical` the top and bottom), as imgproxy's `trim` does for centred subjects with a
    /// shadow on one side. A bitmap of the background alone is returned whole.
    public func trimmed(threshold: Int = 10, background: RGBA? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) -> Bitmap {
        guard width > 0, height > 0 else { return self }
        let corner = background ?? self[0, 0]
        func differs(_ x: Int, _ y: Int) -> Bool {
            let i = y * bytesPerRow + x * 4
            return abs(Int(pixels[i]) - Int(corner.r)) > threshold || abs(Int(pixels[i + 1]) - Int(corner.g)) > threshold
                || abs(Int(pixels[i + 2]) - Int(corner.b)) > threshold || abs(Int(pixels[i + 3]) - Int(corner.a)) > threshold
        }
        var top = 0, bottom = height, left = 0, right = width
        while top < bottom, !(0..<width).contains(where: { differs($0, top) }) { top += 1 }
        guard top < bottom else { return self }
        while !(0..<width).contains(where: { differs($0, bottom - 1) }) { bottom -= 1 }
        while !(top..<bottom).contains(where: { differs(left, $0) }) { left += 1 }
        while !(top..<bottom).contains(where: { differs(right - 1, $0) }) { right -= 1 }
        if equalHorizontal { (left, right) = (min(left, width - right), width - min(left, width - right)) }
        if equalVertical { (top, bottom) = (min(top, height - bottom), height - min(top, height - bottom)) }
        return cropped(to: PixelRect(x: left, y: top, width: right - left, height: bottom - top))
    }

    /// A bitmap of one colour (`colour` in straight alpha, stored in `alphaMode`).
    public init(filledWith colour: RGBA, width: Int, height: Int, alphaMode: AlphaMode = .straight) {
        self.init(width: width, height: height, alphaMode: alphaMode)
        let colour = colour.converted(to: alphaMode)
        guard colour != RGBA(0, 0, 0, 0) else { return }
        pixels.withUnsafeMutableBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                buffer[i] = colour.r; buffer[i + 1] = colour.g; buffer[i + 2] = colour.b; buffer[i + 3] = colour.a
                i += 4
            }
        }
    }

    /// Copies `other` (same alpha mode) over this bitmap with its top-left corner at (`x`, `y`),
    /// replacing the pixels it covers; parts outside are clipped.
    mutating func draw(_ other: Bitmap, atX x: Int, y: Int) {
        let source = other.converted(to: alphaMode)
        let firstColumn = max(0, x), endColumn = min(width, x + source.width)
        guard firstColumn < endColumn else { return }
        let rowBytes = (endColumn - firstColumn) * 4
        for row in max(0, y)..<min(height, y + source.height) {
            let from = (row - y) * source.bytesPerRow + (firstColumn - x) * 4
            let to = row * bytesPerRow + firstColumn * 4
            pixels.replaceSubrange(to..<(to + rowBytes), with: source.pixels[from..<(from + rowBytes)])
        }
    }
}

/// A clockwise rotation by a multiple of 90°.
public enum QuarterTurn: Int, Sendable, CaseIterable, Codable {
    /// 90° clockwise.
    case clockwise90 = 90
    /// 180°.
    case half = 180
    /// 270° clockwise (90° counter-clockwise).
    case clockwise270 = 270
}

extension RGBA {
    /// This straight-alpha colour in `mode`.
    func converted(to mode: Bitmap.AlphaMode) -> RGBA {
        guard mode == .premultiplied, a != 255 else { return self }
        func times(_ c: UInt8) -> UInt8 { UInt8((UInt32(c) * UInt32(a) + 127) / 255) }
        return RGBA(times(r), times(g), times(b), a)
    }

    /// Parses `RRGGBB`, `RRGGBBAA` or CSS's short `RGB` hexadecimal (an optional leading `#`).
    public init?(hex: String) {
        var digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        if digits.count == 3 { digits = String(digits.flatMap { [$0, $0] }) }
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
            let value = UInt32(digits, radix: 16)
        else { return nil }
        if digits.count == 6 {
            self.init(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
        } else {
            self.init(UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
        }
    }

    /// `RRGGBBAA` in lower-case hexadecimal.
    package var hex: String {
        [r, g, b, a].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

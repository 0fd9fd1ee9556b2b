/// Brightness, contrast and saturation, applied in that order (as imgproxy's `adjust`); each
/// value at its neutral setting leaves the pixels as they are.
public struct ColorAdjustment: Sendable, Hashable, Codable {
    /// Levels added to every colour sample, -255...255 (0: unchanged).
    public var brightness: Int
    /// How far each sample moves away from mid-grey (128): 1 unchanged, 0 flat grey, 2 twice as far.
    public var contrast: Double
    /// How far each colour moves away from its own grey (ITU-R 601 luma): 1 unchanged, 0 grey.
    public var saturation: Double

    /// The adjustment with these settings (the defaults change nothing).
    public init(brightness: Int = 0, contrast: Double = 1, saturation: Double = 1) {
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
    }

    /// Whether the adjustment leaves every pixel as it is.
    public var isIdentity: Bool { brightness == 0 && contrast == 1 && saturation == 1 }

    /// The largest factor contrast and saturation take: past it every sample is already 0 or 255.
    public static let maxFactor = 1000.0
}

extension Bitmap {
    /// The colours adjusted by `adjustment` (alpha kept). Brightness adds levels; contrast scales
    /// each sample's distance from 128 (Pillow's `ImageEnhance.Contrast` on a picture whose mean
    /// grey is 128); saturation scales each sample's distance from the pixel's ITU-R 601 luma
    /// (Pillow's `ImageEnhance.Color`). Each step rounds and clamps to 0...255.
    public func adjusted(_ adjustment: ColorAdjustment) throws(ImageError) -> Bitmap {
        let factors = 0...ColorAdjustment.maxFactor
        guard (-255...255).contains(adjustment.brightness) else {
            throw .invalidParameter(name: "brightness", "\(adjustment.brightness): give -255...255")
        }
        guard factors.contains(adjustment.contrast), factors.contains(adjustment.saturation) else {
            throw .invalidParameter(
                name: "adjustment", "contrast \(adjustment.contrast) and saturation \(adjustment.saturation): give 0...\(factors.upperBound)")
        }
        guard !adjustment.isIdentity else { return self }
        // Brightness and contrast act on each sample alone: one table for both.
        let table: [UInt8] = (0...255).map { level in
            let bright = Self.clamped(Double(level + adjustment.brightness))
            return Self.clamped(128 + (Double(bright) - 128) * adjustment.contrast)
        }
        let saturation = adjustment.saturation
        var out = converted(to: .straight)
        out.mapPixels { r, g, b, _ in
            r = table[Int(r)]; g = table[Int(g)]; b = table[Int(b)]
            guard saturation != 1 else { return }
            let grey = Double(Self.luma601(r, g, b))
            r = Self.clamped(grey + (Double(r) - grey) * saturation)
            g = Self.clamped(grey + (Double(g) - grey) * saturation)
            b = Self.clamped(grey + (Double(b) - grey) * saturation)
        }
        return out.converted(to: alphaMode)
    }

    /// Monochrome in the shades of `color` (imgproxy's `monochrome`): each pixel's Rec. 709
    /// luma mapped black → `color` → white, so that a pixel as bright as `color` becomes it (a
    /// grey `color` gives plain greyscale), mixed with the original by `intensity` (0...1).
    public func monochrome(color: RGBA, intensity: Double) throws(ImageError) -> Bitmap {
        let tone = Double(Self.luma709(color.r, color.g, color.b))
        let palette: [RGBA] = (0...255).map { level in
            let l = Double(level)
            if l <= tone {
                let t = tone == 0 ? 1 : l / tone
                return RGBA(Self.clamped(Double(color.r) * t), Self.clamped(Double(color.g) * t), Self.clamped(Double(color.b) * t))
            }
            let t = (l - tone) / (255 - tone)
            func lift(_ c: UInt8) -> UInt8 { Self.clamped(Double(c) + (255 - Double(c)) * t) }
            return RGBA(lift(color.r), lift(color.g), lift(color.b))
        }
        return try mappingLuma(through: palette, intensity: intensity, name: "monochrome")
    }

    /// Duotone (imgproxy's `duotone`): each pixel's Rec. 709 luma mapped from `dark` (black) to
    /// `light` (white) in a straight line, mixed with the original by `intensity` (0...1).
    public func duotone(dark: RGBA, light: RGBA, intensity: Double) throws(ImageError) -> Bitmap {
        let palette: [RGBA] = (0...255).map { level in
            let t = Double(level) / 255
            func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { Self.clamped(Double(a) + (Double(b) - Double(a)) * t) }
            return RGBA(mix(dark.r, light.r), mix(dark.g, light.g), mix(dark.b, light.b))
        }
        return try mappingLuma(through: palette, intensity: intensity, name: "duotone")
    }

    /// Each pixel replaced by `palette[luma]`, mixed with the original by `intensity`; alpha kept.
    private func mappingLuma(through palette: [RGBA], intensity: Double, name: String) throws(ImageError) -> Bitmap {
        guard intensity.isFinite, (0...1).contains(intensity) else {
            throw .invalidParameter(name: name, "an intensity of \(intensity): give 0...1")
        }
        guard intensity > 0 else { return self }
        var out = converted(to: .straight)
        out.mapPixels { r, g, b, _ in
            let tone = palette[Int(Self.luma709(r, g, b))]
            func mix(_ original: UInt8, _ toned: UInt8) -> UInt8 {
                Self.clamped(Double(original) + (Double(toned) - Double(original)) * intensity)
            }
            r = mix(r, tone.r); g = mix(g, tone.g); b = mix(b, tone.b)
        }
        return out.converted(to: alphaMode)
    }

    /// `value` rounded to the nearest level in 0...255.
    @inline(__always)
    static func clamped(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }

    /// ITU-R 601-2 luma, in Pillow's fixed point (its `convert("L")`), so that saturation moves
    /// colours away from the same grey as `ImageEnhance.Color`.
    @inline(__always)
    static func luma601(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let red: UInt32 = 19595 * UInt32(r), green: UInt32 = 38470 * UInt32(g), blue: UInt32 = 7471 * UInt32(b)
        return UInt8((red + green + blue + 0x8000) >> 16)
    }

    /// Rec. 709 luma (0.2126, 0.7152, 0.0722 in 16-bit fixed point), as ``grayscaled()``.
    @inline(__always)
    static func luma709(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let red: UInt32 = 13933 * UInt32(r), green: UInt32 = 46871 * UInt32(g), blue: UInt32 = 4732 * UInt32(b)
        return UInt8((red + green + blue + 0x8000) >> 16)
    }
}

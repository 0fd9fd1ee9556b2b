extension Bitmap {
    /// Grey levels from the Rec. 709 luma of each pixel (on the gamma-encoded samples, as libvips'
    /// and sharp's `grayscale` on sRGB input); alpha is kept.
    public func grayscaled() -> Bitmap {
        var out = converted(to: .straight)
        out.mapPixels { r, g, b, _ in
            // 0.2126, 0.7152, 0.0722 in 16-bit fixed point (summing to 65536).
            let red: UInt32 = 13933 * UInt32(r), green: UInt32 = 46871 * UInt32(g), blue: UInt32 = 4732 * UInt32(b)
            let luma = UInt8((red + green + blue + 32768) >> 16)
            r = luma; g = luma; b = luma
        }
        return out.converted(to: alphaMode)
    }

    /// Composited over an opaque `background` (its alpha is ignored): every pixel opaque, its
    /// colour what the translucent pixel shows over that background.
    public func flattened(onto background: RGBA) -> Bitmap {
        // The scan is far cheaper than the blend, and most photos have nothing to blend.
        if isOpaque { return self }
        var out = converted(to: .straight)
        let (br, bg, bb) = (UInt32(background.r), UInt32(background.g), UInt32(background.b))
        out.mapPixels { r, g, b, a in
            guard a != 255 else { return }
            let alpha = UInt32(a), rest = 255 - alpha
            r = UInt8((UInt32(r) * alpha + br * rest + 127) / 255)
            g = UInt8((UInt32(g) * alpha + bg * rest + 127) / 255)
            b = UInt8((UInt32(b) * alpha + bb * rest + 127) / 255)
            a = 255
        }
        out.alphaMode = alphaMode
        return out
    }

    /// Corners cut round with `radius` pixels (antialiased: edge pixels keep the part of their
    /// alpha the arc covers). A radius over half the shorter side is taken as that half.
    public func roundingCorners(radius: Double) throws(ImageError) -> Bitmap {
        guard radius.isFinite, radius >= 0 else {
            throw .invalidParameter(name: "radius", "a corner radius of \(radius): give 0 or more pixels")
        }
        let r = min(radius, Double(min(width, height)) / 2)
        guard r > 0 else { return self }
        var out = converted(to: .straight)
        let reach = Int(r.rounded(.up))
        let rows = Set(Array(0..<min(reach, height)) + Array(max(0, height - reach)..<height))
        let columns = Set(Array(0..<min(reach, width)) + Array(max(0, width - reach)..<width))
        for y in rows {
            let cy = Double(y) + 0.5
            let centreY = cy < r ? r : (cy > Double(height) - r ? Double(height) - r : nil)
            guard let centreY else { continue }
            for x in columns {
                let cx = Double(x) + 0.5
                guard let centreX = cx < r ? r : (cx > Double(width) - r ? Double(width) - r : nil) else { continue }
                // Each pixel is scaled once, by the part of it the nearest corner's arc covers.
                let distance = ((cx - centreX) * (cx - centreX) + (cy - centreY) * (cy - centreY)).squareRoot()
                let coverage = min(1, max(0, r - distance + 0.5))
                guard coverage < 1 else { continue }
                let i = y * out.bytesPerRow + x * 4 + 3
                out.pixels[i] = UInt8((Double(out.pixels[i]) * coverage).rounded())
            }
        }
        return out.converted(to: alphaMode)
    }

    /// The largest centred circle: the centred square, with everything outside its inscribed
    /// circle transparent (antialiased).
    public func circleMasked() throws(ImageError) -> Bitmap {
        let side = min(width, height)
        guard side > 0 else { return self }
        let square = cropped(to: PixelRect(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side))
        return try square.roundingCorners(radius: Double(side) / 2)
    }
}

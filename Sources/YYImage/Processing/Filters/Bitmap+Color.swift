extension Bitmap {
    /// Grey levels from the Rec. 709 luma of each pixel (on the gamma-encoded samples, as libvips'
    /// and sharp's `grayscale` on sRGB input); alpha is kept.
    public func grayscaled() -> Bitmap {
        var out = converted(to: .straight)
        out.mapPixels { r, g, b, _ in
            let luma = Self.luma709(r, g, b)
            r = luma; g = luma; b = luma
        }
        return out.converted(to: alphaMode)
    }

    /// Composited over `background` (Porter-Duff "over"): with an opaque background every pixel
    /// becomes opaque, its colour what the translucent pixel shows over that background; a
    /// translucent background leaves the result translucent where both are.
    public func flattened(onto background: RGBA) -> Bitmap {
        // The scan is far cheaper than the blend, and most photos have nothing to blend.
        if isOpaque { return self }
        var out = converted(to: .straight)
        let (br, bg, bb, ba) = (UInt32(background.r), UInt32(background.g), UInt32(background.b), UInt32(background.a))
        out.mapPixels { r, g, b, a in
            guard a != 255 else { return }
            // Weights scaled by 255 * 255 to stay in integers; their sum is 255 * out.alpha.
            let pixelWeight = UInt32(a) * 255, backgroundWeight = ba * (255 - UInt32(a))
            let total = pixelWeight + backgroundWeight
            guard total > 0 else { return }
            func mix(_ pixel: UInt8, _ back: UInt32) -> UInt8 {
                UInt8((UInt32(pixel) * pixelWeight + back * backgroundWeight + total / 2) / total)
            }
            r = mix(r, br); g = mix(g, bg); b = mix(b, bb)
            a = UInt8((total + 127) / 255)
        }
        // Opaque pixels read the same in either alpha mode.
        guard ba == 255 else { return out.converted(to: alphaMode) }
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

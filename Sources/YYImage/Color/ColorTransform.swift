internal import CLCMS2

/// Colour conversions through Little CMS: an embedded ICC profile's pixels to sRGB.
///
/// RGB profiles convert RGBA pixels in place of their colour (alpha copied); gray profiles
/// convert the gray level and spread it to R, G and B; CMYK profiles convert the ink values of a
/// CMYK JPEG. The rendering intent is perceptual, as libvips, Pillow and `tificc` use by default.
enum ColorTransform {
    /// The colour spaces of profiles this converts from.
    enum Space: Equatable {
        case rgb, gray, cmyk
    }

    /// The colour space `profile` describes, `nil` when lcms cannot read it or it is another one.
    static func space(of profile: [UInt8]) -> Space? {
        guard let handle = open(profile) else { return nil }
        defer { cmsCloseProfile(handle) }
        switch cmsGetColorSpace(handle) {
        case cmsSigRgbData: return .rgb
        case cmsSigGrayData: return .gray
        case cmsSigCmykData: return .cmyk
        default: return nil
        }
    }

    /// `bitmap` (straight alpha) with its colour converted from `profile` to sRGB; `bitmap` as it
    /// is when the profile is unreadable or of a space its pixels are not in.
    static func toSRGB(_ bitmap: Bitmap, from profile: [UInt8]) -> Bitmap {
        guard bitmap.width > 0, bitmap.height > 0, let space = space(of: profile), space != .cmyk else { return bitmap }
        var out = bitmap.converted(to: .straight)
        let (width, height, stride) = (out.width, out.height, out.bytesPerRow)
        if space == .rgb {
            guard
                let transform = makeTransform(
                    profile, input: CLCMS2_TYPE_RGBA_8, output: CLCMS2_TYPE_RGBA_8,
                    flags: CLCMS2_FLAGS_COPY_ALPHA)
            else { return bitmap }
            defer { cmsDeleteTransform(transform) }
            out.pixels.withUnsafeMutableBufferPointer { pixels in
                cmsDoTransformLineStride(
                    transform, pixels.baseAddress, pixels.baseAddress, cmsUInt32Number(width),
                    cmsUInt32Number(height), cmsUInt32Number(stride), cmsUInt32Number(stride), 0, 0)
            }
            // Alpha is copied as it is.
            if bitmap.isKnownOpaque { out.markOpaque() }
            return out.converted(to: bitmap.alphaMode)
        }
        // Gray: the level of each pixel (R), converted to an sRGB colour, alpha kept.
        guard let transform = makeTransform(profile, input: CLCMS2_TYPE_GRAY_8, output: CLCMS2_TYPE_RGB_8, flags: 0) else {
            return bitmap
        }
        defer { cmsDeleteTransform(transform) }
        var gray = [UInt8](repeating: 0, count: width)
        var rgb = [UInt8](repeating: 0, count: width * 3)
        for y in 0..<height {
            for x in 0..<width { gray[x] = out.pixels[y * stride + x * 4] }
            cmsDoTransform(transform, gray, &rgb, cmsUInt32Number(width))
            for x in 0..<width {
                out.pixels[y * stride + x * 4] = rgb[x * 3]
                out.pixels[y * stride + x * 4 + 1] = rgb[x * 3 + 1]
                out.pixels[y * stride + x * 4 + 2] = rgb[x * 3 + 2]
            }
        }
        if bitmap.isKnownOpaque { out.markOpaque() }
        return out.converted(to: bitmap.alphaMode)
    }

    /// CMYK ink values (4 bytes a pixel, 0 = no ink) as opaque sRGB: through `profile` when it is
    /// a readable CMYK profile, else by the naive formula R = (255 − C)(255 − K)/255 that Pillow and
    /// browsers use without one.
    static func cmykToSRGB(_ inks: [UInt8], width: Int, height: Int, profile: [UInt8]?) -> Bitmap {
        var out = Bitmap(width: width, height: height)
        if let profile, space(of: profile) == .cmyk,
            let transform = makeTransform(profile, input: CLCMS2_TYPE_CMYK_8, output: CLCMS2_TYPE_RGBA_8, flags: 0)
        {
            defer { cmsDeleteTransform(transform) }
            inks.withUnsafeBufferPointer { input in
                out.pixels.withUnsafeMutableBufferPointer { output in
                    cmsDoTransformLineStride(
                        transform, input.baseAddress, output.baseAddress, cmsUInt32Number(width),
                        cmsUInt32Number(height), cmsUInt32Number(width * 4), cmsUInt32Number(width * 4), 0, 0)
                }
            }
            // lcms leaves the output's extra channel alone: alpha is opaque.
            for i in stride(from: 3, to: out.pixels.count, by: 4) { out.pixels[i] = 255 }
            out.markOpaque()
            return out
        }
        for i in stride(from: 0, to: width * height * 4, by: 4) {
            let white = 255 - UInt32(inks[i + 3])
            out.pixels[i] = UInt8((255 - UInt32(inks[i])) * white / 255)
            out.pixels[i + 1] = UInt8((255 - UInt32(inks[i + 1])) * white / 255)
            out.pixels[i + 2] = UInt8((255 - UInt32(inks[i + 2])) * white / 255)
            out.pixels[i + 3] = 255
        }
        out.markOpaque()
        return out
    }

    private static func open(_ profile: [UInt8]) -> cmsHPROFILE? {
        profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
    }

    private static func makeTransform(
        _ profile: [UInt8], input: cmsUInt32Number, output: cmsUInt32Number,
        flags: cmsUInt32Number
    ) -> cmsHTRANSFORM? {
        guard let source = open(profile) else { return nil }
        defer { cmsCloseProfile(source) }
        guard let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        return cmsCreateTransform(source, input, sRGB, output, cmsUInt32Number(INTENT_PERCEPTUAL), flags)
    }
}

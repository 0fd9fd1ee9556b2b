/// One step of a ``ProcessingChain``.
public enum ProcessingStep: Sendable, Hashable, Codable {
    /// Resize to a box (fit, gravity, kernel).
    case resize(Resize)
    /// Keep a rectangle, which must lie inside the image.
    case crop(PixelRect)
    /// Pad each side with a colour.
    case extend(top: Int, left: Int, bottom: Int, right: Int, background: RGBA)
    /// Turn clockwise.
    case rotate(QuarterTurn)
    /// Mirror top to bottom.
    case flip
    /// Mirror left to right.
    case flop
    /// Remove a border of the top-left pixel's colour (samples within `threshold` levels).
    case trim(threshold: Int)
    /// Gaussian blur.
    case blur(sigma: Double)
    /// Unsharp mask.
    case sharpen(sigma: Double)
    /// imgproxy's 3 × 3 unsharp masking (``Bitmap/unsharpMasked(weight:divider:)``).
    case unsharpMask(weight: Double, divider: Double)
    /// Blocks of `size` × `size` pixels, each the mean colour of its pixels.
    case pixelate(size: Int)
    /// Grey from Rec. 709 luma.
    case grayscale
    /// Brightness, contrast and saturation.
    case adjust(ColorAdjustment)
    /// Shades of one colour, mixed with the original by `intensity`.
    case monochrome(color: RGBA, intensity: Double)
    /// Luma mapped from `dark` to `light`, mixed with the original by `intensity`.
    case duotone(dark: RGBA, light: RGBA, intensity: Double)
    /// A colour laid over everything (with `keepsAlpha`, over the colours only).
    case colorize(color: RGBA, opacity: Double, keepsAlpha: Bool)
    /// A linear gradient from transparent to a colour laid over everything.
    case gradient(GradientOverlay)
    /// Composite over an opaque colour.
    case flatten(background: RGBA)
    /// Round the corners with a radius in pixels.
    case roundCorners(radius: Double)
    /// Keep the centred circle (and crop to its square).
    case circle

    /// This step applied to `bitmap`, calling `checkpoint` within long work (resizes, blurs): one
    /// that throws stops the step there.
    func apply(to bitmap: Bitmap, checkpoint: () throws(ImageError) -> Void = {}) throws(ImageError) -> Bitmap {
        switch self {
        case .resize(let resize): return try resize.apply(to: bitmap, checkpoint: checkpoint)
        case .crop(let rect):
            guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
                rect.x <= bitmap.width - rect.width, rect.y <= bitmap.height - rect.height
            else {
                throw .invalidParameter(
                    name: "crop", "\(rect.width)x\(rect.height) at \(rect.x),\(rect.y) does not lie inside the \(bitmap.width)x\(bitmap.height) image"
                )
            }
            return bitmap.cropped(to: rect)
        case .extend(let top, let left, let bottom, let right, let background):
            return try bitmap.extended(top: top, left: left, bottom: bottom, right: right, background: background)
        case .rotate(let turn): return bitmap.rotated(turn)
        case .flip: return bitmap.flipped()
        case .flop: return bitmap.flopped()
        case .trim(let threshold):
            guard ProcessingLimits.trimThresholds.contains(threshold) else {
                throw .invalidParameter(name: "trim", "a threshold of \(threshold): give 0...255")
            }
            return bitmap.trimmed(threshold: threshold)
        case .blur(let sigma): return try bitmap.blurred(sigma: sigma, checkpoint: checkpoint)
        case .sharpen(let sigma): return try bitmap.sharpened(sigma: sigma, checkpoint: checkpoint)
        case .unsharpMask(let weight, let divider): return try bitmap.unsharpMasked(weight: weight, divider: divider)
        case .pixelate(let size): return try bitmap.pixelated(blockSize: size)
        case .grayscale: return bitmap.grayscaled()
        case .adjust(let adjustment): return try bitmap.adjusted(adjustment)
        case .monochrome(let color, let intensity): return try bitmap.monochrome(color: color, intensity: intensity)
        case .duotone(let dark, let light, let intensity): return try bitmap.duotone(dark: dark, light: light, intensity: intensity)
        case .colorize(let color, let opacity, let keepsAlpha): return try bitmap.colorized(with: color, opacity: opacity, keepsAlpha: keepsAlpha)
        case .gradient(let gradient): return try bitmap.overlaid(with: gradient)
        case .flatten(let background): return bitmap.flattened(onto: background)
        case .roundCorners(let radius): return try bitmap.roundingCorners(radius: radius)
        case .circle: return try bitmap.circleMasked()
        }
    }

    /// The step's part of ``ProcessingChain/identifier``.
    var identifier: String {
        switch self {
        case .resize(let resize): resize.identifier
        case .crop(let r): "crop(\(r.x),\(r.y),\(r.width),\(r.height))"
        case .extend(let t, let l, let b, let r, let bg): "extend(\(t),\(l),\(b),\(r),\(bg.hex))"
        case .rotate(let turn): "rotate(\(turn.rawValue))"
        case .flip: "flip"
        case .flop: "flop"
        case .trim(let threshold): "trim(\(threshold))"
        case .blur(let sigma): "blur(\(sigma))"
        case .sharpen(let sigma): "sharpen(\(sigma))"
        case .unsharpMask(let weight, let divider): "unsharp(\(weight),\(divider))"
        case .pixelate(let size): "pixelate(\(size))"
        case .grayscale: "grayscale"
        case .adjust(let a): "adjust(\(a.brightness),\(a.contrast),\(a.saturation))"
        case .monochrome(let color, let intensity): "monochrome(\(color.hex),\(intensity))"
        case .duotone(let dark, let light, let intensity): "duotone(\(dark.hex),\(light.hex),\(intensity))"
        case .colorize(let color, let opacity, let keepsAlpha): "colorize(\(color.hex),\(opacity),\(keepsAlpha))"
        case .gradient(let g): "gradient(\(g.color.hex),\(g.opacity),\(g.angle),\(g.start),\(g.stop))"
        case .flatten(let bg): "flatten(\(bg.hex))"
        case .roundCorners(let radius): "round(\(radius))"
        case .circle: "circle"
        }
    }
}

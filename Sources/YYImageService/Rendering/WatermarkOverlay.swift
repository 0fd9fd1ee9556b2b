import Foundation
import YYImage

/// The service's watermark image made ready for one result, as imgproxy makes it: decoded
/// upright in sRGB (its first frame), scaled to fit the result's sides times the option's scale,
/// then either placed at its position with the offsets, or, tiled, spaced by the offsets and
/// repeated from a copy centred on the result. Made once per request and drawn over every frame.
struct WatermarkOverlay: Sendable {
    /// The watermark as drawn: scaled, with the tiling space around it.
    let image: Bitmap
    /// Where its top-left corner (the first tile's, when tiled) sits on the result.
    let origin: (x: Int, y: Int)
    let tiled: Bool
    /// The option's opacity times the service's base opacity.
    let opacity: Double

    /// The overlay of `data` for a result of `resultSize`, turned, sized and shadowed as `style`
    /// says; absolute offsets are times `dpr`. The watermark, at every step, may have at most
    /// `maxPixels` pixels.
    init(
        data: Data, options: ProcessingOptions.Watermark, style: ProcessingOptions.WatermarkStyle = .init(), dpr: Double,
        baseOpacity: Double, resultSize: (width: Int, height: Int), maxPixels: Int, checkpoint: () throws(ImageError) -> Void
    ) throws(ImageError) {
        var decoderOptions = ImageDecoder.Options()
        decoderOptions.maxPixelCount = maxPixels
        decoderOptions.convertsToSRGB = true
        var image = try ImageDecoder(data: data, options: decoderOptions).frame(at: 0, shrinkOnLoad: nil, checkpoint: checkpoint)
        if style.rotation != 0 { image = try image.rotated(byDegrees: style.rotation, maxPixels: maxPixels) }
        let (width, height) = resultSize
        if let box = Self.box(for: (image.width, image.height), options: options, style: style, resultSize: resultSize) {
            let pixels = box.width.multipliedReportingOverflow(by: box.height)
            guard !pixels.overflow, pixels.partialValue <= maxPixels else {
                throw .invalidParameter(name: "watermark", "a \(box.width)x\(box.height) watermark is over the limit of \(maxPixels) pixels")
            }
            let resize = ProcessingChain([.resize(Resize(width: box.width, height: box.height, fit: .inside, enlarge: true))])
            image = try resize.apply(to: image, decodedFrom: nil, checkpoint: checkpoint)
        }
        if style.shadowSigma > 0 { image = try Self.shadowed(image, sigma: style.shadowSigma, maxPixels: maxPixels, checkpoint: checkpoint) }
        let offset = options.offset.pixels(in: resultSize, scale: dpr)
        if options.tiled {
            // The offsets are the space between copies, half on each side of every copy (more
            // than the result's side would show one copy at most).
            let space = (x: min(max(0, offset.x), width), y: min(max(0, offset.y), height))
            if space.x + space.y > 0 {
                image = try image.extended(
                    top: space.y / 2, left: space.x / 2, bottom: space.y - space.y / 2, right: space.x - space.x / 2,
                    background: RGBA(0, 0, 0, 0))
            }
        }
        if options.tiled {
            // An odd number of copies across and down covers the result, the middle one centred.
            func start(_ extent: Int, _ tile: Int) -> Int {
                var copies = (extent + tile - 1) / tile
                if copies.isMultiple(of: 2) { copies += 1 }
                return -(copies * tile - extent) / 2
            }
            origin = (start(width, image.width), start(height, image.height))
        } else {
            origin = Self.position(of: (image.width, image.height), in: resultSize, at: options.position, offset: offset)
        }
        self.image = image
        tiled = options.tiled
        opacity = min(1, options.opacity * baseOpacity)
    }

    /// The box the watermark fits in: the result's sides times the scale, else the style's size
    /// (a 0 side from the aspect ratio); `nil` keeps its size.
    private static func box(
        for mark: (width: Int, height: Int), options: ProcessingOptions.Watermark, style: ProcessingOptions.WatermarkStyle,
        resultSize: (width: Int, height: Int)
    ) -> (width: Int, height: Int)? {
        if options.scale > 0 {
            return (max(1, rounded(Double(resultSize.width) * options.scale)), max(1, rounded(Double(resultSize.height) * options.scale)))
        }
        guard style.width > 0 || style.height > 0, mark.width > 0, mark.height > 0 else { return nil }
        let aspect = Double(mark.width) / Double(mark.height)
        return (
            style.width > 0 ? style.width : max(1, rounded(Double(style.height) * aspect)),
            style.height > 0 ? style.height : max(1, rounded(Double(style.width) / aspect))
        )
    }

    /// `image` over a black copy of its alpha blurred by `sigma`, on a canvas grown by three
    /// sigmas each side so that the shadow is not cut.
    private static func shadowed(_ image: Bitmap, sigma: Double, maxPixels: Int, checkpoint: () throws(ImageError) -> Void)
        throws(ImageError) -> Bitmap
    {
        let reach = Int((sigma * 3).rounded(.up))
        let (width, height) = (image.width + 2 * reach, image.height + 2 * reach)
        guard width <= maxPixels / max(1, height) else {
            throw .invalidParameter(name: "watermark", "a \(width)x\(height) shadowed watermark is over the limit of \(maxPixels) pixels")
        }
        let padded = try image.extended(top: reach, left: reach, bottom: reach, right: reach, background: RGBA(0, 0, 0, 0))
        let black = try padded.colorized(with: RGBA(0, 0, 0), opacity: 1, keepsAlpha: true)
        let shadow = try ProcessingChain([.blur(sigma: sigma)]).apply(to: black, decodedFrom: nil, checkpoint: checkpoint)
        return shadow.composited(with: padded, atX: 0, y: 0)
    }

    /// `frame` with the watermark drawn over it.
    func drawn(over frame: Bitmap) -> Bitmap {
        frame.composited(with: image, atX: origin.x, y: origin.y, opacity: opacity, tiled: tiled)
    }

    /// imgproxy's watermark placement: a compass point aligns the watermark to that edge and the
    /// offset moves it inward (right and down when centred on that axis); the centre rounds
    /// half a pixel to even. It may stick out, but keeps at least one pixel on the result.
    static func position(
        of mark: (width: Int, height: Int), in extent: (width: Int, height: Int), at gravity: Gravity, offset: (x: Int, y: Int)
    ) -> (x: Int, y: Int) {
        let alignment = gravity.alignment() ?? (0.5, 0.5)
        func place(_ inner: Int, _ outer: Int, _ align: Double, _ offset: Int) -> Int {
            let position: Int
            switch align {
            case 0: position = offset
            case 1: position = outer - inner - offset
            default: position = rounded(Double(outer - inner + 1) / 2) + offset
            }
            return min(max(position, 1 - inner), outer - 1)
        }
        return (place(mark.width, extent.width, alignment.x, offset.x), place(mark.height, extent.height, alignment.y, offset.y))
    }

    /// Halves to even, as imgproxy rounds.
    private static func rounded(_ value: Double) -> Int {
        Int(value.rounded(.toNearestOrEven))
    }
}

/// A resize to a box: which sides are given, how the image meets the box, where a crop keeps
/// or a pad places it, and how pixels are filtered.
public struct Resize: Sendable, Hashable, Codable {
    /// The box's width; `nil` follows the aspect ratio from `height`.
    public var width: Int?
    /// The box's height; `nil` follows the aspect ratio from `width`.
    public var height: Int?
    /// How the image meets the box (default ``FitMode/inside``).
    public var fit: FitMode = .inside
    /// Where `cover` crops and `contain` pads (default ``Gravity/center``).
    public var gravity: Gravity = .center
    /// Whether an image smaller than the box may grow (default false, as libvips' thumbnail).
    public var enlarge = false
    /// The padding colour of `contain` (default transparent black; flattened later for formats
    /// without alpha).
    public var background = RGBA(0, 0, 0, 0)
    /// The filter and its settings.
    public var options = ResizeOptions()

    /// A resize to `width` × `height` (give at least one).
    public init(
        width: Int? = nil, height: Int? = nil, fit: FitMode = .inside, gravity: Gravity = .center,
        enlarge: Bool = false, background: RGBA = RGBA(0, 0, 0, 0), options: ResizeOptions = ResizeOptions()
    ) {
        self.width = width
        self.height = height
        self.fit = fit
        self.gravity = gravity
        self.enlarge = enlarge
        self.background = background
        self.options = options
    }

    /// The canvas this resize gives a `sourceWidth` × `sourceHeight` image, by sharp's rules.
    public func outputSize(sourceWidth: Int, sourceHeight: Int) throws(ImageError) -> (width: Int, height: Int) {
        let geometry = try self.geometry(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        return (geometry.canvasWidth, geometry.canvasHeight)
    }

    /// The longest side a decoder may shrink a `sourceWidth` × `sourceHeight` source to before
    /// this resize: the scaled size, times the reducing gap when there is one (so that, as Pillow's
    /// `draft` and libvips' shrink-on-load leave it, the kernel still has about twice the target
    /// to work from). `nil` when the resize does not shrink.
    func shrinkOnLoad(sourceWidth: Int, sourceHeight: Int) -> Int? {
        guard let geometry = try? self.geometry(sourceWidth: sourceWidth, sourceHeight: sourceHeight),
            geometry.scaledWidth < sourceWidth, geometry.scaledHeight < sourceHeight
        else { return nil }
        let scale = max(Double(geometry.scaledWidth) / Double(sourceWidth), Double(geometry.scaledHeight) / Double(sourceHeight))
        let side = Double(max(sourceWidth, sourceHeight)) * scale * (options.reducingGap ?? 1)
        return side >= Double(max(sourceWidth, sourceHeight)) ? nil : Int(side.rounded(.up))
    }

    /// The multiple of its size to draw a `sourceWidth` × `sourceHeight` vector source at so that
    /// it comes out at the size this resize scales it to (the larger of the two sides' factors:
    /// the resize after changes the drawing by at most a pixel); `nil` when the geometry is
    /// refused. The resize is taken as `enlarge`-ing when drawing larger: a drawing is not a
    /// bitmap scaled up.
    func vectorScale(sourceWidth: Int, sourceHeight: Int) -> Double? {
        var drawn = self
        drawn.enlarge = true
        guard let geometry = try? drawn.geometry(sourceWidth: sourceWidth, sourceHeight: sourceHeight) else { return nil }
        return max(Double(geometry.scaledWidth) / Double(sourceWidth), Double(geometry.scaledHeight) / Double(sourceHeight))
    }

    func geometry(sourceWidth: Int, sourceHeight: Int) throws(ImageError) -> ResizeGeometry {
        guard width != nil || height != nil else {
            throw .invalidParameter(name: "resize", "give a width, a height or both")
        }
        for (name, side) in [("width", width), ("height", height)] {
            if let side, !ProcessingLimits.sides.contains(side) {
                throw .invalidParameter(
                    name: name, "\(side) pixels: give \(ProcessingLimits.sides.lowerBound)...\(ProcessingLimits.sides.upperBound)")
            }
        }
        if case .focalPoint(let x, let y) = gravity, !((0...1).contains(x) && (0...1).contains(y)) {
            throw .invalidParameter(name: "gravity", "a focal point at \(x),\(y): give fractions 0...1")
        }
        if let gap = options.reducingGap, !(gap.isFinite && gap >= 1) {
            throw .invalidParameter(name: "reducingGap", "\(gap): give 1 or more, or nil")
        }
        let geometry = ResizeGeometry(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height,
            fit: fit, enlarge: enlarge)
        try ProcessingLimits.checkOutput(width: geometry.scaledWidth, height: geometry.scaledHeight)
        try ProcessingLimits.checkOutput(width: geometry.canvasWidth, height: geometry.canvasHeight)
        return geometry
    }

    /// `bitmap` resized: a cover crop samples just the kept window of the source, a contain pads
    /// after scaling. Every size comes from `original`, the size of the image `bitmap` was decoded
    /// from (`nil`: `bitmap`'s own), so a shrink-on-load never changes the result's size: a
    /// shrunk bitmap is only a cheaper source for the same picture. `checkpoint` runs between
    /// rounds of the filtering; one that throws stops it.
    func apply(
        to bitmap: Bitmap, original: (width: Int, height: Int)? = nil, checkpoint: () throws(ImageError) -> Void = {}
    ) throws(ImageError) -> Bitmap {
        guard bitmap.width > 0, bitmap.height > 0 else { throw .invalidParameter(name: "resize", "an empty image") }
        let source = original ?? (bitmap.width, bitmap.height)
        let g = try geometry(sourceWidth: source.width, sourceHeight: source.height)
        // Bitmap pixels per scaled pixel.
        let (sx, sy) = (Double(bitmap.width) / Double(g.scaledWidth), Double(bitmap.height) / Double(g.scaledHeight))
        if g.canvasWidth < g.scaledWidth || g.canvasHeight < g.scaledHeight {
            // `cover`: find the window in scaled pixels, then sample only its part of the source.
            let origin: (x: Int, y: Int)
            switch gravity {
            case .entropy, .attention:
                let window = (Int((Double(g.canvasWidth) * sx).rounded()), Int((Double(g.canvasHeight) * sy).rounded()))
                let found = gravity.cropOrigin(in: bitmap, width: min(bitmap.width, window.0), height: min(bitmap.height, window.1))
                origin = (
                    min(g.scaledWidth - g.canvasWidth, Int((Double(found.x) / sx).rounded())),
                    min(g.scaledHeight - g.canvasHeight, Int((Double(found.y) / sy).rounded()))
                )
            default:
                origin = gravity.origin(of: (g.canvasWidth, g.canvasHeight), in: (g.scaledWidth, g.scaledHeight))
            }
            let region = SourceRegion(
                x: Double(origin.x) * sx, y: Double(origin.y) * sy,
                width: Double(g.canvasWidth) * sx, height: Double(g.canvasHeight) * sy)
            return try Resampler.resize(
                bitmap, width: g.canvasWidth, height: g.canvasHeight, region: region, options: options, checkpoint: checkpoint)
        }
        let scaled = try Resampler.resize(bitmap, width: g.scaledWidth, height: g.scaledHeight, options: options, checkpoint: checkpoint)
        guard g.canvasWidth > g.scaledWidth || g.canvasHeight > g.scaledHeight else { return scaled }
        // `contain`: pad at the gravity.
        var canvas = Bitmap(
            filledWith: background, width: g.canvasWidth, height: g.canvasHeight,
            alphaMode: scaled.alphaMode)
        let origin = gravity.origin(of: (g.scaledWidth, g.scaledHeight), in: (g.canvasWidth, g.canvasHeight))
        canvas.draw(scaled, atX: origin.x, y: origin.y)
        return canvas
    }

    /// The spelling in ``ProcessingChain/identifier``.
    var identifier: String {
        var parts = [
            "w=\(width.map(String.init) ?? "auto")", "h=\(height.map(String.init) ?? "auto")", "fit=\(fit.rawValue)",
            "g=\(gravity.spelling)", "k=\(options.kernel.rawValue)",
        ]
        if enlarge { parts.append("enlarge") }
        if fit == .contain { parts.append("bg=\(background.hex)") }
        if let gap = options.reducingGap { parts.append("gap=\(gap)") } else { parts.append("gap=none") }
        if options.linearLight { parts.append("linear") }
        return "resize(" + parts.joined(separator: ",") + ")"
    }
}

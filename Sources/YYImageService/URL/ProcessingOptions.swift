import Foundation
import YYImage

/// What a request's options ask for, with imgproxy's defaults. Later options override earlier
/// ones, presets expand where they stand, and ``cacheKey`` names the result whatever the order
/// or spelling.
struct ProcessingOptions: Sendable, Hashable {
    /// imgproxy's resizing types.
    enum ResizingType: String, Sendable, CaseIterable {
        /// Keep the aspect ratio, fit within the box (the default).
        case fit
        /// Keep the aspect ratio, fill the box, crop the overflow at the gravity.
        case fill
        /// As `fill`, but never larger than the source: a smaller source is cropped to the box's
        /// aspect ratio instead.
        case fillDown = "fill-down"
        /// Stretch to the box.
        case force
        /// `fill` when the source and the box are both portrait or both landscape, else `fit`.
        case auto
    }

    /// A crop before resizing: sides in pixels, fractions of the source below 1, 0 for the
    /// whole side; `gravity` `nil` uses the request's gravity.
    struct Crop: Sendable, Hashable {
        var width: Double
        var height: Double
        var gravity: Gravity?
        /// The offset of the crop's own gravity.
        var offset = Offset()
    }

    /// imgproxy's gravity offsets, away from the edge a gravity anchors to (to the right and down
    /// on an axis it centres): 1 or more either way is pixels (times `dpr` after the resize),
    /// below 1 a fraction of the extent the window is placed in.
    struct Offset: Sendable, Hashable {
        var x = 0.0
        var y = 0.0
        var isZero: Bool { x == 0 && y == 0 }

        /// The offset in pixels, in `extent`, with absolute offsets times `scale`; halves round to even.
        func pixels(in extent: (width: Int, height: Int), scale: Double) -> (x: Int, y: Int) {
            func side(_ value: Double, _ length: Int) -> Int {
                Int((abs(value) >= 1 ? value * scale : value * Double(length)).rounded(.toNearestOrEven))
            }
            return (side(x, extent.width), side(y, extent.height))
        }
    }

    /// Padding added around the result, in pixels before `dpr` (imgproxy's CSS order).
    struct Padding: Sendable, Hashable {
        var top: Int
        var right: Int
        var bottom: Int
        var left: Int
    }

    /// imgproxy's `watermark`: the configured image drawn over the result, last of all.
    struct Watermark: Sendable, Hashable {
        /// Times the service's base opacity, above 0 and at most 1.
        var opacity: Double
        /// What names the watermark image (so that results made with another one differ).
        var image: String
        /// Where it sits: a compass point or the centre (offsets move it away from that edge).
        var position = Gravity.center
        /// Whether it repeats over the whole result (the offsets are then the space between copies).
        var tiled = false
        /// Pixels (times `dpr`) at 1 or more either way, else fractions of the result's side.
        var offset = Offset()
        /// Its size as a fraction of the result's (it fits in the result's sides times this);
        /// 0 keeps its own size.
        var scale = 0.0
    }

    var resizingType = ResizingType.fit
    /// The box, before `dpr`; 0 follows the aspect ratio from the other side.
    var width = 0
    var height = 0
    /// Multiplies the box, the extend padding and ``padding``.
    var dpr = 1.0
    /// Multiply the scale on each axis (and the box a crop keeps), but not the padding.
    var zoomX = 1.0
    var zoomY = 1.0
    /// The least width and height of the result, before `dpr` (0: none); may enlarge.
    var minWidth = 0
    var minHeight = 0
    /// Whether a source smaller than the box may grow.
    var enlarge = false
    /// Whether a result smaller than the box is padded to it, and where it then sits.
    var extend = false
    var extendGravity = Gravity.center
    var extendOffset = Offset()
    /// Whether the result is padded to the box's aspect ratio, and where it then sits.
    var extendAspectRatio = false
    var extendAspectRatioGravity = Gravity.center
    var extendAspectRatioOffset = Offset()
    /// Padding after every other step (in the background colour, else transparent).
    var padding: Padding?
    /// Where `fill` crops (and a crop without its own gravity), and the offset from there.
    var gravity = Gravity.center
    var gravityOffset = Offset()
    var crop: Crop?
    /// The aspect ratio the crop is corrected to (`crop_aspect_ratio`; 0: none), by enlarging
    /// rather than reducing it when asked.
    var cropAspectRatio = 0.0
    var cropAspectRatioEnlarges = false
    /// Trims borders of the corner's colour within this difference (0...255).
    var trimThreshold: Int?
    /// The colour trim removes (`nil`: the top-left pixel's), and whether opposite sides lose the same.
    var trimColor: RGBA?
    var trimEqualHorizontal = false
    var trimEqualVertical = false
    /// A clockwise turn after the EXIF orientation: 0, 90, 180 or 270.
    var rotation = 0
    /// Mirrors after the turn: left to right, top to bottom.
    var flipHorizontal = false
    var flipVertical = false
    /// Whether the EXIF orientation is applied.
    var autoRotate = true
    /// Fills transparency (and the extend padding) with this colour.
    var background: RGBA?
    var blurSigma = 0.0
    var sharpenSigma = 0.0
    /// The side of pixelation's blocks; 0 or 1 for none.
    var pixelateSize = 0
    /// imgproxy Pro's unsharp masking (`unsharp_masking`): when it applies, and how strongly.
    struct UnsharpMasking: Sendable, Hashable {
        /// When the mask applies.
        enum Mode: String, Sendable, Hashable {
            /// Never: imgproxy's open-source behaviour, the default here.
            case none
            /// When the image is scaled down and `sharpen` is not set (imgproxy Pro's default).
            case auto
            /// Always.
            case always
        }
        var mode = Mode.none
        /// How much the neighbours count (above 0).
        var weight = 1.0
        /// The strength's divisor (above 0): smaller is sharper.
        var divider = 24.0
    }
    var unsharpMasking = UnsharpMasking()
    /// imgproxy Pro's `blur_areas`: a Gaussian of `sigma` over rectangles given as fractions
    /// (left, top, width, height) of the source as stored, before its EXIF orientation.
    struct BlurAreas: Sendable, Hashable {
        var sigma: Double
        var areas: [[Double]]
    }
    var blurAreas: BlurAreas?
    /// The background's alpha (`bga`), 0...1.
    var backgroundAlpha = 1.0
    /// Brightness, contrast and saturation (`adjust`, `br`, `co`, `sa`).
    var adjustment = ColorAdjustment()
    /// `monochrome`: in the shades of the colour, by the intensity (0: off).
    var monochromeIntensity = 0.0
    var monochromeColor = RGBA(0xb3, 0xb3, 0xb3)
    /// `duotone`: luma from the dark to the light colour, by the intensity (0: off).
    var duotoneIntensity = 0.0
    var duotoneDark = RGBA(0, 0, 0)
    var duotoneLight = RGBA(255, 255, 255)
    /// `colorize`: a colour laid over the result, at an opacity (0: off), over the colours only
    /// when it keeps the alpha.
    var colorizeOpacity = 0.0
    var colorizeColor = RGBA(0, 0, 0)
    var colorizeKeepsAlpha = false
    /// `gradient`: from transparent to a colour over the result (opacity 0: off).
    var gradient = GradientOverlay(color: RGBA(0, 0, 0), opacity: 0)
    /// The resampling kernel (`resizing_algorithm`); Lanczos-3 by default.
    var resizingAlgorithm = ResamplingKernel.lanczos3
    /// Whether an animation is read as a still (`disable_animation`): then `page` and `pages`
    /// pick its frames.
    var disableAnimation = false
    /// The first page (a TIFF's directories, an ICNS file's sizes, else an animation's frames)
    /// of a still result, from 0, and how many, stacked top to bottom.
    var page = 0
    var pages = 1
    /// The digest the source must have (`hashsum`).
    var hashsum: Hashsum?
    /// CSS for an SVG source (`style`): laid over the document's own styles when it is drawn,
    /// put first in it when it passes through as SVG.
    var svgStyle: String?
    /// imgproxy Pro's watermark options, which apply to whichever `watermark` is drawn.
    struct WatermarkStyle: Sendable, Hashable {
        /// The box the watermark fits in, enlarging if need be (`watermark_size`; 0 follows the
        /// aspect ratio, both 0 keep its size); used only when the watermark's scale is 0.
        var width = 0
        var height = 0
        /// A clockwise turn in degrees, after the watermark's own EXIF orientation.
        var rotation = 0.0
        /// The sigma of a black shadow under it (0: none).
        var shadowSigma = 0.0
    }

    var watermarkStyle = WatermarkStyle()
    /// The watermark image's URL (`watermark_url`), in place of the service's.
    var watermarkURL: String?
    /// The fallback image's URL (`fallback_image_url`), in place of the service's; it changes
    /// only a failure's answer, which is kept under a key of its own.
    var fallbackImageURL: String?
    /// 1...100; 0 for the format's default.
    var quality = 0
    /// Per-format qualities (`fq`), ahead of ``quality``.
    var formatQuality: [ImageType: Int] = [:]
    /// The output format; `nil` negotiates it.
    var format: ImageType?
    /// `format:best`: the smallest of the candidate formats (``OutputFormat/Choice/best(_:)``).
    var bestFormat = false
    /// Whether EXIF and XMP are left out (the default); colour is always converted to sRGB.
    var stripMetadata = true
    /// Whether, stripping metadata, the EXIF copyright notice and artist stay (imgproxy's default).
    var keepCopyright = true
    /// Whether colour is converted to sRGB and the source's ICC profile dropped (the default);
    /// off, JPEG, PNG and WebP results keep the source's colour and embed its profile.
    var stripColorProfile = true
    /// Whether a HEIC or AVIF source's embedded thumbnail is used in place of the main image.
    var enforceThumbnail = false
    /// A string that only changes the cache key.
    var cacheBuster = ""
    /// The most bytes the result may have (lower quality is tried until it fits); 0 for no limit.
    var maxBytes = 0
    /// imgproxy's security options, which only lower the service's limits; `nil` keeps a limit.
    struct SecurityLimits: Sendable, Hashable {
        var sourcePixels: Int?
        var sourceBytes: Int?
        var frames: Int?
        var framePixels: Int?
        var resultSide: Int?
    }

    /// Lower limits for this request (with `--allow-security-options`).
    var security = SecurityLimits()
    /// Source formats served as they are when the result would have the same format.
    var skipProcessing: Set<ImageType> = []
    /// The watermark to draw, when the service has a watermark image.
    var watermark: Watermark?
    /// Whether the source is served as fetched, unchecked and uncached.
    var raw = false
    /// The file name's stem for `Content-Disposition`; `nil` takes the source URL's.
    var filename: String?
    /// Whether `Content-Disposition` says `attachment` (a download) rather than `inline`.
    var returnAttachment = false

    /// The defaults.
    init() {}

    /// The quality to encode `type` with: `fq`, then `q`, then the format's default.
    func effectiveQuality(for type: ImageType) -> Int {
        if let quality = formatQuality[type] { return quality }
        if quality > 0 { return quality }
        return Self.defaultQuality(for: type)
    }

    /// imgproxy's defaults: JPEG 80, WebP 79, AVIF 63, JPEG XL 77, others 80.
    static func defaultQuality(for type: ImageType) -> Int {
        switch type {
        case .webp: 79
        case .avif: 63
        case .jpegXL: 77
        default: 80
        }
    }

    /// Every field in a fixed order: equal options give equal keys, and every field that changes
    /// the result changes the key. ``filename`` and ``returnAttachment`` change only a header,
    /// written with each response, ``fallbackImageURL`` only what a failing source gets, and a
    /// ``raw`` response is never cached, so they stay out.
    var cacheKey: String {
        var parts = ["rt=\(resizingType.rawValue)", "w=\(width)", "h=\(height)", "dpr=\(dpr)", "el=\(enlarge)"]
        parts.append("ex=\(extend):\(Self.key(extendGravity))")
        parts.append("g=\(Self.key(gravity))")
        if let crop { parts.append("c=\(crop.width):\(crop.height):\(crop.gravity.map(Self.key) ?? "-")") }
        if let trimThreshold { parts.append("t=\(trimThreshold)") }
        parts += ["rot=\(rotation)", "ar=\(autoRotate)", "bg=\(background?.hex ?? "-")", "bl=\(blurSigma)", "sh=\(sharpenSigma)"]
        parts.append("q=\(quality)")
        let qualities = formatQuality.map { "\($0.key.rawValue):\($0.value)" }.sorted()
        if !qualities.isEmpty { parts.append("fq=\(qualities.joined(separator: ":"))") }
        parts += ["sm=\(stripMetadata)", "mb=\(maxBytes)"]
        if !cacheBuster.isEmpty { parts.append("cb=\(cacheBuster)") }
        // Options added later join the key only when set, so keys made before them stay valid.
        if zoomX != 1 || zoomY != 1 { parts.append("z=\(zoomX):\(zoomY)") }
        if minWidth > 0 || minHeight > 0 { parts.append("min=\(minWidth):\(minHeight)") }
        if flipHorizontal || flipVertical { parts.append("fl=\(flipHorizontal):\(flipVertical)") }
        if extendAspectRatio { parts.append("exar=\(Self.key(extendAspectRatioGravity))") }
        if let padding { parts.append("pd=\(padding.top):\(padding.right):\(padding.bottom):\(padding.left)") }
        if pixelateSize > 1 { parts.append("pix=\(pixelateSize)") }
        if trimThreshold != nil, let trimColor { parts.append("tc=\(trimColor.hex)") }
        if trimThreshold != nil, trimEqualHorizontal || trimEqualVertical { parts.append("te=\(trimEqualHorizontal):\(trimEqualVertical)") }
        // A request under lower limits may be refused where another is not: it keeps its own results.
        let limits = [
            ("msr", security.sourcePixels), ("msfs", security.sourceBytes), ("maf", security.frames), ("mafr", security.framePixels),
            ("mrd", security.resultSide),
        ]
        for (name, limit) in limits { if let limit { parts.append("\(name)=\(limit)") } }
        if !skipProcessing.isEmpty { parts.append("skp=\(skipProcessing.map(\.rawValue).sorted().joined(separator: ":"))") }
        if !keepCopyright { parts.append("kcr=false") }
        if !stripColorProfile { parts.append("scp=false") }
        if enforceThumbnail { parts.append("eth=true") }
        if let watermark {
            let w = watermark
            parts.append("wm=\(w.opacity):\(w.tiled ? "re" : Self.key(w.position)):\(w.offset.x):\(w.offset.y):\(w.scale):\(w.image)")
            let style = watermarkStyle
            if style != WatermarkStyle() {
                parts.append("wms=\(style.width):\(style.height):\(style.rotation):\(style.shadowSigma)")
            }
        }
        if backgroundAlpha != 1 { parts.append("bga=\(backgroundAlpha)") }
        if !adjustment.isIdentity { parts.append("a=\(adjustment.brightness):\(adjustment.contrast):\(adjustment.saturation)") }
        if monochromeIntensity > 0 { parts.append("mc=\(monochromeIntensity):\(monochromeColor.hex)") }
        if duotoneIntensity > 0 { parts.append("dt=\(duotoneIntensity):\(duotoneDark.hex):\(duotoneLight.hex)") }
        if colorizeOpacity > 0 { parts.append("col=\(colorizeOpacity):\(colorizeColor.hex):\(colorizeKeepsAlpha)") }
        if gradient.opacity > 0 {
            let g = gradient
            parts.append("gr=\(g.opacity):\(g.color.hex):\(g.angle):\(g.start):\(g.stop)")
        }
        if resizingAlgorithm != .lanczos3 { parts.append("ra=\(resizingAlgorithm.rawValue)") }
        if cropAspectRatio > 0 { parts.append("car=\(cropAspectRatio):\(cropAspectRatioEnlarges)") }
        if disableAnimation { parts.append("da=true") }
        if page != 0 || pages != 1 { parts.append("pg=\(page):\(pages)") }
        // A cached result was made from a source that passed the check: another digest must
        // not find it.
        if let hashsum { parts.append("hs=\(hashsum.algorithm.rawValue):\(hashsum.expected.hexEncoded)") }
        if unsharpMasking != UnsharpMasking() {
            let u = unsharpMasking
            parts.append("ush=\(u.mode.rawValue):\(u.weight):\(u.divider)")
        }
        if let blurAreas {
            parts.append("ba=\(blurAreas.sigma):" + blurAreas.areas.map { $0.map { "\($0)" }.joined(separator: ",") }.joined(separator: ":"))
        }
        if let svgStyle { parts.append("st=\(Array(svgStyle.utf8).base64URLEncoded)") }
        let offsets = [("go", gravityOffset), ("co", crop?.offset ?? Offset()), ("eo", extendOffset), ("aro", extendAspectRatioOffset)]
        for (name, offset) in offsets where !offset.isZero { parts.append("\(name)=\(offset.x):\(offset.y)") }
        return parts.joined(separator: "/")
    }

    /// The gravity's stable spelling (never a case name, which a rename would change).
    private static func key(_ gravity: Gravity) -> String {
        switch gravity {
        case .focalPoint(let x, let y): "fp:\(x):\(y)"
        default: gravity.spelling
        }
    }
}

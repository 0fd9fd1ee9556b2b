import Foundation
import YYImage

/// Reads imgproxy's processing options (`name:arg:arg`, full or short names) into
/// ``ProcessingOptions``. An option that is not known, or an argument that is not valid, is a
/// 400 that names it: nothing is ignored silently.
struct OptionParser: Sendable {
    /// Presets by name, each a list of option segments (`default` applies to every request).
    let presets: [String: [String]]
    /// The largest box side a request may ask for, after `dpr`.
    let maxResultSide: Int
    /// Whether the security options may lower limits (else they are a 403).
    var allowsSecurityOptions = false
    /// What names the service's watermark image (its URL, or a digest of its bytes), which joins
    /// the result's key; `nil`: no watermark image, and `watermark` is checked but changes
    /// nothing, as in imgproxy.
    var watermarkIdentity: String?
    /// The option names a URL may use, as written; empty allows every one (options inside
    /// presets are always allowed).
    var allowedOptions: Set<String> = []
    /// The time `expires` is checked against.
    var now: @Sendable () -> Date = { Date() }

    /// `segments` applied in order over the `default` preset, over the client's `hints`.
    func parse(_ segments: [String], hints: ClientHints = ClientHints()) throws(ServiceError) -> ProcessingOptions {
        var options = hints.applied(to: ProcessingOptions())
        if let defaults = presets["default"] { try apply(defaults, to: &options, within: ["default"]) }
        try apply(segments, to: &options, within: [])
        try checkBox(options)
        // The watermark's image: the URL's (`wmu`), else the service's; without one, `wm` is
        // checked and changes nothing, as in imgproxy.
        if let image = options.watermarkURL ?? watermarkIdentity {
            options.watermark?.image = image
        } else {
            options.watermark = nil
        }
        return options
    }

    /// Applies `segments`, which come from the URL (`within` empty) or from the presets named
    /// in `within`, each expanding the one before.
    private func apply(_ segments: [String], to options: inout ProcessingOptions, within chain: [String]) throws(ServiceError) {
        for segment in segments where !segment.isEmpty {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if chain.isEmpty, !allowedOptions.isEmpty, !allowedOptions.contains(parts[0]) { throw .forbiddenOption(parts[0]) }
            try apply(name: parts[0], arguments: Array(parts.dropFirst()), to: &options, within: chain)
        }
    }

    // The one switch over every option name keeps the spelling table in one place.
    private func apply(name: String, arguments args: [String], to o: inout ProcessingOptions, within chain: [String]) throws(ServiceError) {
        let reader = ArgumentReader(option: name, arguments: args)
        switch name {
        case "resize", "rs":
            try reader.count(1...8)
            if let type = try reader.optional(0, ResizingTypeArgument.self) { o.resizingType = type }
            if let width = try reader.optionalSide(1) { o.width = width }
            if let height = try reader.optionalSide(2) { o.height = height }
            if let enlarge = try reader.optionalBool(3) { o.enlarge = enlarge }
            try applyExtend(reader, from: 4, to: &o)
        case "size", "s":
            try reader.count(1...7)
            if let width = try reader.optionalSide(0) { o.width = width }
            if let height = try reader.optionalSide(1) { o.height = height }
            if let enlarge = try reader.optionalBool(2) { o.enlarge = enlarge }
            try applyExtend(reader, from: 3, to: &o)
        case "resizing_type", "rt":
            try reader.count(1...1)
            o.resizingType = try reader.required(0, ResizingTypeArgument.self)
        case "width", "w":
            o.width = try reader.onlySide()
        case "height", "h":
            o.height = try reader.onlySide()
        case "dpr":
            try reader.count(1...1)
            o.dpr = try reader.double(0, in: 0.01...8, exclusiveLower: true)
        case "zoom", "z":
            try reader.count(1...2)
            o.zoomX = try reader.positive(0, upTo: Double(ProcessingLimits.sides.upperBound))
            o.zoomY = reader.has(1) ? try reader.positive(1, upTo: Double(ProcessingLimits.sides.upperBound)) : o.zoomX
        case "min-width", "mw":
            o.minWidth = try reader.onlySide()
        case "min-height", "mh":
            o.minHeight = try reader.onlySide()
        case "enlarge", "el":
            o.enlarge = try reader.onlyBool()
        case "extend", "ex":
            try reader.count(1...4)
            try applyExtend(reader, from: 0, to: &o)
        case "extend_aspect_ratio", "extend_ar", "exar":
            try reader.count(1...4)
            if let extend = try reader.optionalBool(0) { o.extendAspectRatio = extend }
            if reader.has(1) { (o.extendAspectRatioGravity, o.extendAspectRatioOffset) = try reader.gravity(from: 1, smart: false) }
        case "padding", "pd":
            try reader.count(1...4)
            // CSS order: a missing right is the top, a missing bottom the top, a missing left the right.
            let top = reader.has(0) ? try reader.side(0) : 0
            let right = reader.has(1) ? try reader.side(1) : top
            let bottom = reader.has(2) ? try reader.side(2) : top
            let left = reader.has(3) ? try reader.side(3) : right
            o.padding = top + right + bottom + left == 0 ? nil : .init(top: top, right: right, bottom: bottom, left: left)
        case "gravity", "g":
            try reader.count(1...3)
            (o.gravity, o.gravityOffset) = try reader.gravity(from: 0)
        case "crop", "c":
            try reader.count(2...5)
            let width = try reader.double(0, in: 0...Double(ProcessingLimits.sides.upperBound))
            let height = try reader.double(1, in: 0...Double(ProcessingLimits.sides.upperBound))
            let placement = reader.has(2) ? try reader.gravity(from: 2) : nil
            o.crop =
                width == 0 && height == 0
                ? nil : ProcessingOptions.Crop(width: width, height: height, gravity: placement?.0, offset: placement?.1 ?? .init())
        case "crop_aspect_ratio", "crop_ar", "car":
            try reader.count(1...2)
            o.cropAspectRatio = try reader.double(0, in: 0...Double(ProcessingLimits.sides.upperBound))
            if let enlarges = try reader.optionalBool(1) { o.cropAspectRatioEnlarges = enlarges }
        case "trim", "t":
            try reader.count(1...4)
            let thresholds = ProcessingLimits.trimThresholds
            // An empty threshold turns trimming off, as in imgproxy.
            o.trimThreshold =
                reader.has(0) ? Int(try reader.double(0, in: Double(thresholds.lowerBound)...Double(thresholds.upperBound)).rounded()) : nil
            o.trimColor = reader.has(1) ? try reader.hexColor(1) : nil
            if let equal = try reader.optionalBool(2) { o.trimEqualHorizontal = equal }
            if let equal = try reader.optionalBool(3) { o.trimEqualVertical = equal }
        case "rotate", "rot":
            try reader.count(1...1)
            let angle = try reader.integer(0, in: -360...360)
            guard angle.isMultiple(of: 90) else { throw .badRequest("option rotate: \(angle) is not a multiple of 90") }
            o.rotation = (angle % 360 + 360) % 360
        case "flip", "fl":
            try reader.count(1...2)
            o.flipHorizontal = try reader.optionalBool(0) ?? false
            o.flipVertical = try reader.optionalBool(1) ?? false
        case "auto_rotate", "ar":
            o.autoRotate = try reader.onlyBool()
        case "background", "bg":
            o.background = try reader.color()
        case "blur", "bl":
            try reader.count(1...1)
            o.blurSigma = try reader.sigma(0)
        case "sharpen", "sh":
            try reader.count(1...1)
            o.sharpenSigma = try reader.sigma(0)
        case "pixelate", "pix":
            o.pixelateSize = try reader.onlySide()
        case "unsharp_masking", "ush":
            try reader.count(1...3)
            if let mode = try reader.optional(0, UnsharpMaskingModeArgument.self) { o.unsharpMasking.mode = mode }
            if reader.has(1) { o.unsharpMasking.weight = try reader.positive(1, upTo: 1_000) }
            if reader.has(2) { o.unsharpMasking.divider = try reader.positive(2, upTo: 1_000_000) }
        case "blur_areas", "ba":
            guard args.count >= 5, (args.count - 1) % 4 == 0 else {
                throw .badRequest("option \(name): \(args.count) arguments, expected a sigma and four numbers per area")
            }
            let sigma = try reader.sigma(0)
            let areas = try stride(from: 1, to: args.count, by: 4).map { (start: Int) throws(ServiceError) -> [Double] in
                try (start..<start + 4).map { (index: Int) throws(ServiceError) -> Double in try reader.double(index, in: 0...1) }
            }
            o.blurAreas = sigma > 0 ? ProcessingOptions.BlurAreas(sigma: sigma, areas: areas) : nil
        case "resizing_algorithm", "ra":
            try reader.count(1...1)
            o.resizingAlgorithm = try reader.required(0, ResizingAlgorithmArgument.self)
        case "background_alpha", "bga":
            try reader.count(1...1)
            o.backgroundAlpha = try reader.double(0, in: 0...1)
        case "adjust", "a":
            try reader.count(1...3)
            if reader.has(0) { o.adjustment.brightness = try reader.integer(0, in: -255...255) }
            if reader.has(1) { o.adjustment.contrast = try reader.factor(1) }
            if reader.has(2) { o.adjustment.saturation = try reader.factor(2) }
        case "brightness", "br":
            try reader.count(1...1)
            o.adjustment.brightness = try reader.integer(0, in: -255...255)
        case "contrast", "co":
            try reader.count(1...1)
            o.adjustment.contrast = try reader.factor(0)
        case "saturation", "sa":
            try reader.count(1...1)
            o.adjustment.saturation = try reader.factor(0)
        case "monochrome", "mc":
            try reader.count(1...2)
            o.monochromeIntensity = try reader.double(0, in: 0...1)
            if reader.has(1) { o.monochromeColor = try reader.hexColor(1) }
        case "duotone", "dt":
            try reader.count(1...3)
            o.duotoneIntensity = try reader.double(0, in: 0...1)
            if reader.has(1) { o.duotoneDark = try reader.hexColor(1) }
            if reader.has(2) { o.duotoneLight = try reader.hexColor(2) }
        case "colorize", "col":
            try reader.count(1...3)
            o.colorizeOpacity = try reader.double(0, in: 0...1)
            if reader.has(1) { o.colorizeColor = try reader.hexColor(1) }
            if let keepsAlpha = try reader.optionalBool(2) { o.colorizeKeepsAlpha = keepsAlpha }
        case "gradient", "gr":
            try reader.count(1...5)
            o.gradient.opacity = try reader.double(0, in: 0...1)
            if reader.has(1) { o.gradient.color = try reader.hexColor(1) }
            if reader.has(2) { o.gradient.angle = try reader.required(2, GradientDirectionArgument.self) }
            if reader.has(3) { o.gradient.start = try reader.double(3, in: 0...1) }
            if reader.has(4) { o.gradient.stop = try reader.double(4, in: 0...1) }
        case "disable_animation", "da":
            o.disableAnimation = try reader.onlyBool()
        case "page", "pg":
            try reader.count(1...1)
            o.page = try reader.integer(0, in: 0...Self.maxPage)
        case "pages", "pgs":
            try reader.count(1...1)
            o.pages = try reader.integer(0, in: 1...Self.maxPage + 1)
        case "hashsum", "hs":
            try reader.count(1...2)
            o.hashsum = try reader.hashsum()
        case "style", "st":
            try reader.count(1...1)
            o.svgStyle = try reader.base64Text(0, what: "CSS in URL-safe base64")
        case "watermark", "wm":
            try reader.count(1...5)
            let opacity = try reader.double(0, in: 0...1)
            var watermark = ProcessingOptions.Watermark(opacity: opacity, image: "")
            if reader.has(1) { (watermark.position, watermark.tiled) = try reader.watermarkPosition(1) }
            let limit = Double(ProcessingLimits.sides.upperBound)
            if reader.has(2) { watermark.offset.x = try reader.double(2, in: -limit...limit) }
            if reader.has(3) { watermark.offset.y = try reader.double(3, in: -limit...limit) }
            // 0 keeps the watermark's size. imgproxy sets no upper bound; past 8 times the result
            // a watermark shows only its middle.
            if reader.has(4) { watermark.scale = try reader.double(4, in: 0...8) }
            o.watermark = opacity > 0 ? watermark : nil
        case "watermark_size", "wms":
            try reader.count(1...2)
            o.watermarkStyle.width = try reader.side(0)
            o.watermarkStyle.height = reader.has(1) ? try reader.side(1) : 0
        case "watermark_rotate", "wm_rot", "wmr":
            try reader.count(1...1)
            o.watermarkStyle.rotation = try reader.double(0, in: -360_000...360_000).truncatingRemainder(dividingBy: 360)
        case "watermark_shadow", "wmsh":
            try reader.count(1...1)
            o.watermarkStyle.shadowSigma = try reader.sigma(0)
        case "watermark_url", "wmu":
            try reader.count(1...1)
            o.watermarkURL = reader.has(0) ? try reader.encodedURL(0) : nil
        case "fallback_image_url", "fiu":
            try reader.count(1...1)
            o.fallbackImageURL = reader.has(0) ? try reader.encodedURL(0) : nil
        case "quality", "q":
            try reader.count(1...1)
            o.quality = try reader.integer(0, in: 0...100)
        case "format_quality", "fq":
            guard !args.isEmpty, args.count.isMultiple(of: 2) else {
                throw .badRequest("option format_quality: give format:quality pairs")
            }
            for index in stride(from: 0, to: args.count, by: 2) {
                o.formatQuality[try reader.format(index)] = try reader.integer(index + 1, in: 1...100)
            }
        case "format", "f", "ext":
            try reader.count(1...1)
            o.bestFormat = args[0].lowercased() == "best"
            o.format = args[0].isEmpty || o.bestFormat ? nil : try reader.format(0)
        case "strip_metadata", "sm":
            o.stripMetadata = try reader.onlyBool()
        case "keep_copyright", "kcr":
            o.keepCopyright = try reader.onlyBool()
        case "strip_color_profile", "scp":
            o.stripColorProfile = try reader.onlyBool()
        case "enforce_thumbnail", "eth":
            o.enforceThumbnail = try reader.onlyBool()
        case "preserve_hdr", "ph":
            // Read and checked; every result is 8-bit, so there is no high bit depth to keep.
            _ = try reader.onlyBool()
        case "cachebuster", "cb":
            try reader.count(1...1)
            o.cacheBuster = args[0]
        case "max_bytes", "mb":
            try reader.count(1...1)
            o.maxBytes = try reader.integer(0, in: 0...Int(Int32.max))
        case "skip_processing", "skp":
            guard !args.isEmpty else { throw .badRequest("option skip_processing: give one or more formats") }
            for index in args.indices {
                guard let type = ImageType(fileExtension: args[index].lowercased()) else { throw reader.invalid(index, "an image format") }
                o.skipProcessing.insert(type)
            }
        case "raw":
            o.raw = try reader.onlyBool()
        case "max_src_resolution", "msr", "max_src_file_size", "msfs", "max_animation_frames", "maf",
            "max_animation_frame_resolution", "mafr", "max_result_dimension", "mrd":
            try applySecurityOption(name, reader, to: &o.security)
        case "expires", "exp":
            try reader.count(1...1)
            guard let timestamp = Int64(args[0]) else { throw reader.invalid(0, "a unix timestamp") }
            // 0 and below never expire, as in imgproxy.
            if timestamp > 0, Double(timestamp) < now().timeIntervalSince1970 { throw .notFound("the URL has expired") }
        case "filename", "fn":
            try reader.count(1...2)
            o.filename = try reader.filename(0, encoded: try reader.optionalBool(1) ?? false)
        case "return_attachment", "att":
            o.returnAttachment = try reader.onlyBool()
        case "preset", "pr":
            guard !args.isEmpty else { throw .badRequest("option preset: give a preset name") }
            for preset in args {
                guard let segments = presets[preset] else { throw .badRequest("option preset: unknown preset '\(preset)'") }
                // A preset that names one it is already expanding is a loop: as imgproxy does,
                // that name is skipped and the rest applies.
                if chain.contains(preset) { continue }
                try apply(segments, to: &o, within: chain + [preset])
            }
        default:
            throw .badRequest("unsupported option '\(name)'")
        }
    }

    /// The largest page number: a TIFF has at most 65,535 directories.
    static let maxPage = 65_534

    /// A security option: megapixels for the resolutions, bytes, frames or pixels for the rest.
    private func applySecurityOption(_ name: String, _ reader: ArgumentReader, to limits: inout ProcessingOptions.SecurityLimits) throws(ServiceError)
    {
        guard allowsSecurityOptions else { throw ServiceError(status: .forbidden, message: "security options are not allowed") }
        try reader.count(1...1)
        func megapixels() throws(ServiceError) -> Int { Int((try reader.positive(0, upTo: 1e6) * 1_000_000).rounded()) }
        switch name {
        case "max_src_resolution", "msr": limits.sourcePixels = try megapixels()
        case "max_animation_frame_resolution", "mafr": limits.framePixels = try megapixels()
        case "max_src_file_size", "msfs": limits.sourceBytes = try reader.integer(0, in: 1...Int(Int32.max))
        case "max_animation_frames", "maf": limits.frames = try reader.integer(0, in: 1...Int(Int32.max))
        default: limits.resultSide = try reader.integer(0, in: 1...ProcessingLimits.sides.upperBound)
        }
    }

    private func applyExtend(_ reader: ArgumentReader, from index: Int, to o: inout ProcessingOptions) throws(ServiceError) {
        if let extend = try reader.optionalBool(index) { o.extend = extend }
        if reader.has(index + 1) { (o.extendGravity, o.extendOffset) = try reader.gravity(from: index + 1, smart: false) }
    }

    /// Refuses a box (or a minimum side) larger than the result limit after `dpr` and `zoom`,
    /// before anything is fetched.
    private func checkBox(_ o: ProcessingOptions) throws(ServiceError) {
        let sides = [
            ("width", Double(o.width) * o.dpr * o.zoomX), ("height", Double(o.height) * o.dpr * o.zoomY),
            ("min-width", Double(o.minWidth) * o.dpr), ("min-height", Double(o.minHeight) * o.dpr),
        ]
        for (name, side) in sides where side.rounded() > Double(maxResultSide) {
            // Within Int's range: sides, zoom and dpr are bounded by the parser.
            throw .unprocessable("\(name) \(Int(side.rounded())) is over the result limit of \(maxResultSide) pixels")
        }
    }
}

/// `fit`, `fill`, `fill-down`, `force`, `auto`.
private enum ResizingTypeArgument: ArgumentValue {
    static func parse(_ text: String) -> ProcessingOptions.ResizingType? { ProcessingOptions.ResizingType(rawValue: text) }
    static let expected = "fit, fill, fill-down, force or auto"
}

/// imgproxy's resizing algorithms, as our kernels (its `cubic` is libvips' Catmull-Rom).
private enum ResizingAlgorithmArgument: ArgumentValue {
    static func parse(_ text: String) -> ResamplingKernel? {
        ["nearest": .nearest, "linear": .linear, "cubic": .catmullRom, "lanczos2": .lanczos2, "lanczos3": .lanczos3][text]
    }
    static let expected = "nearest, linear, cubic, lanczos2 or lanczos3"
}

/// When unsharp masking applies: `none`, `auto` or `always`.
private enum UnsharpMaskingModeArgument: ArgumentValue {
    static func parse(_ text: String) -> ProcessingOptions.UnsharpMasking.Mode? { .init(rawValue: text) }
    static let expected = "an unsharp masking mode (none, auto, always)"
}

/// A gradient's direction: degrees clockwise from down, or `down`, `left`, `up`, `right`.
private enum GradientDirectionArgument: ArgumentValue {
    static func parse(_ text: String) -> Double? {
        if let angle = ["down": 0.0, "left": 90, "up": 180, "right": 270][text] { return angle }
        guard let degrees = Double(text), degrees.isFinite, abs(degrees) <= 360_000 else { return nil }
        return degrees.truncatingRemainder(dividingBy: 360)
    }
    static let expected = "a direction (down, up, left, right or degrees clockwise from down)"
}

/// A value an argument can be read as.
private protocol ArgumentValue {
    associatedtype Value
    static func parse(_ text: String) -> Value?
    static var expected: String { get }
}

/// The arguments of one option, read with errors that name the option.
private struct ArgumentReader {
    let option: String
    let arguments: [String]

    func count(_ range: ClosedRange<Int>) throws(ServiceError) {
        guard range.contains(arguments.count) else {
            let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw .badRequest("option \(option): \(arguments.count) arguments, expected \(expected)")
        }
    }

    func has(_ index: Int) -> Bool { index < arguments.count && !arguments[index].isEmpty }

    func invalid(_ index: Int, _ expected: String) -> ServiceError {
        .badRequest("option \(option): '\(arguments[index])' is not \(expected)")
    }

    func required<V: ArgumentValue>(_ index: Int, _ type: V.Type) throws(ServiceError) -> V.Value {
        guard let value = V.parse(arguments[index]) else { throw invalid(index, V.expected) }
        return value
    }

    func optional<V: ArgumentValue>(_ index: Int, _ type: V.Type) throws(ServiceError) -> V.Value? {
        has(index) ? try required(index, type) : nil
    }

    func integer(_ index: Int, in range: ClosedRange<Int>) throws(ServiceError) -> Int {
        guard let value = Int(arguments[index]), range.contains(value) else {
            throw invalid(index, "an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    func double(_ index: Int, in range: ClosedRange<Double>, exclusiveLower: Bool = false) throws(ServiceError) -> Double {
        guard let value = Double(arguments[index]), value.isFinite, range.contains(value),
            !(exclusiveLower && value <= 0)
        else { throw invalid(index, "a number in \(range.lowerBound)...\(range.upperBound)") }
        return value
    }

    /// A box side: 0 (follow the aspect ratio) or a side a resize takes.
    func side(_ index: Int) throws(ServiceError) -> Int { try integer(index, in: 0...ProcessingLimits.sides.upperBound) }

    /// A blur or sharpen sigma: 0 (off) or one the filters take (``ProcessingLimits``).
    func sigma(_ index: Int) throws(ServiceError) -> Double {
        let sigma = try double(index, in: 0...ProcessingLimits.maxFilterSigma)
        guard sigma == 0 || ProcessingLimits.isValidFilterSigma(sigma) else { throw invalid(index, "a sigma the filters take") }
        return sigma
    }

    func optionalSide(_ index: Int) throws(ServiceError) -> Int? { has(index) ? try side(index) : nil }

    /// The side that is the option's one argument.
    func onlySide() throws(ServiceError) -> Int {
        try count(1...1)
        return try side(0)
    }

    /// imgproxy's booleans: `1`, `t`, `true` and `0`, `f`, `false`.
    func bool(_ index: Int) throws(ServiceError) -> Bool {
        switch arguments[index].lowercased() {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw invalid(index, "a boolean (1, t, true, 0, f, false)")
        }
    }

    func optionalBool(_ index: Int) throws(ServiceError) -> Bool? { has(index) ? try bool(index) : nil }

    /// The boolean that is the option's one argument.
    func onlyBool() throws(ServiceError) -> Bool {
        try count(1...1)
        return try bool(0)
    }

    /// A gravity from `index` on: a type (`no so ea we noea nowe soea sowe ce sm fp`; `sm` only
    /// where `smart`, as imgproxy's extend gravities have no smart type), then the x and y
    /// offsets of a compass type (pixels, or fractions below 1; `sm` takes none) or, for `fp`,
    /// the focal point's x and y in 0...1.
    func gravity(from index: Int, smart: Bool = true) throws(ServiceError) -> (Gravity, ProcessingOptions.Offset) {
        let type = arguments[index]
        if type == "sm", !smart { throw invalid(index, "a gravity without smart detection (no, so, ea, we, noea, nowe, soea, sowe, ce, fp)") }
        if type == "fp" {
            guard arguments.count == index + 3 else { throw .badRequest("option \(option): gravity fp needs x and y") }
            return (.focalPoint(x: try double(index + 1, in: 0...1), y: try double(index + 2, in: 0...1)), .init())
        }
        guard let gravity = Self.compass[type] else {
            throw invalid(index, "a gravity (no, so, ea, we, noea, nowe, soea, sowe, ce, sm, fp)")
        }
        guard arguments.count <= index + 3 else { throw .badRequest("option \(option): a gravity takes at most two offsets") }
        let limit = Double(ProcessingLimits.sides.upperBound)
        var offset = ProcessingOptions.Offset()
        if has(index + 1) { offset.x = try double(index + 1, in: -limit...limit) }
        if has(index + 2) { offset.y = try double(index + 2, in: -limit...limit) }
        if gravity == .attention, !offset.isZero { throw .badRequest("option \(option): gravity sm takes no offsets") }
        return (gravity, offset)
    }

    /// A watermark's position: `re` (tiled) or a compass point or `ce`.
    func watermarkPosition(_ index: Int) throws(ServiceError) -> (Gravity, tiled: Bool) {
        if arguments[index] == "re" { return (.center, true) }
        guard let gravity = Self.compass[arguments[index]], gravity != .attention else {
            throw invalid(index, "a watermark position (re, no, so, ea, we, noea, nowe, soea, sowe, ce)")
        }
        return (gravity, false)
    }

    private static let compass: [String: Gravity] = [
        "no": .north, "so": .south, "ea": .east, "we": .west, "noea": .northEast, "nowe": .northWest,
        "soea": .southEast, "sowe": .southWest, "ce": .center, "sm": .attention,
    ]

    /// `R:G:B` (0...255 each) or a hex colour (`RRGGBB`, `RRGGBBAA`); an empty argument clears it.
    func color() throws(ServiceError) -> RGBA? {
        if arguments.count == 3 {
            let r = try integer(0, in: 0...255), g = try integer(1, in: 0...255), b = try integer(2, in: 0...255)
            return RGBA(UInt8(r), UInt8(g), UInt8(b))
        }
        guard arguments.count == 1 else { throw .badRequest("option \(option): give R:G:B or a hex colour") }
        if arguments[0].isEmpty { return nil }
        return try hexColor(0)
    }

    /// A hex colour: `RGB`, `RRGGBB` or `RRGGBBAA`.
    func hexColor(_ index: Int) throws(ServiceError) -> RGBA {
        guard let colour = RGBA(hex: arguments[index]) else { throw invalid(index, "a hex colour (RGB, RRGGBB or RRGGBBAA)") }
        return colour
    }

    /// A URL in URL-safe base64 (padding optional): an `http(s)://` or `local:///` address.
    func encodedURL(_ index: Int) throws(ServiceError) -> String {
        guard let bytes = [UInt8](base64URL: arguments[index]), let url = String(bytes: bytes, encoding: .utf8),
            url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("local:///")
        else { throw invalid(index, "an http(s):// or local:/// URL in URL-safe base64") }
        return url
    }

    /// `none` (no check), or an algorithm and the hex digest the source must have.
    func hashsum() throws(ServiceError) -> Hashsum? {
        if arguments[0] == "none" { return nil }
        guard let algorithm = Hashsum.Algorithm(rawValue: arguments[0]) else {
            throw invalid(0, "a hashsum type (none, md5, sha1, sha256, sha512)")
        }
        guard arguments.count == 2, let digest = [UInt8](hex: arguments[1].lowercased()), digest.count == algorithm.length else {
            throw .badRequest("option \(option): give the \(algorithm.rawValue) digest in hex (\(algorithm.length * 2) digits)")
        }
        return Hashsum(algorithm: algorithm, expected: digest)
    }

    /// UTF-8 text in URL-safe base64 (padding optional), `nil` when empty.
    func base64Text(_ index: Int, what: String) throws(ServiceError) -> String? {
        guard let bytes = [UInt8](base64URL: arguments[index]), let text = String(bytes: bytes, encoding: .utf8) else {
            throw invalid(index, what)
        }
        return text.isEmpty ? nil : text
    }

    /// A contrast or saturation factor: 1 unchanged, 0 flat.
    func factor(_ index: Int) throws(ServiceError) -> Double { try double(index, in: 0...ColorAdjustment.maxFactor) }

    /// A number above 0, at most `limit`.
    func positive(_ index: Int, upTo limit: Double) throws(ServiceError) -> Double {
        try double(index, in: 0...limit, exclusiveLower: true)
    }

    /// A file name: percent-escaped, or URL-safe base64 (padding optional) when `encoded`;
    /// UTF-8 without control characters.
    func filename(_ index: Int, encoded: Bool) throws(ServiceError) -> String {
        let text = arguments[index]
        let name: String?
        if encoded {
            name = [UInt8](base64URL: text).flatMap { String(bytes: $0, encoding: .utf8) }
        } else {
            name = text.removingPercentEncoding
        }
        guard let name, !name.isEmpty, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw invalid(index, encoded ? "a file name in URL-safe base64" : "a percent-escaped file name")
        }
        return name
    }

    /// An output format by its extension: jpg, png, webp, avif, gif, jxl, tiff, bmp, ico, svg.
    func format(_ index: Int) throws(ServiceError) -> ImageType {
        guard let type = ImageType(fileExtension: arguments[index].lowercased()), OutputFormat.servable.contains(type) else {
            throw invalid(index, "an output format (\(OutputFormat.servable.map(\.fileExtension).joined(separator: ", ")))")
        }
        return type
    }
}

import ArgumentParser
import Foundation
import YYImage

/// `yy image convert IN OUT [--type --quality --lossless --loop] [processing flags]`: re-encode
/// every frame, resized, cropped, turned and filtered on the way.
struct ImageConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image or animation to another type, resizing and filtering it on the way.",
        discussion: """
            The output type comes from --type or OUT's extension (png/apng, gif, jpg, webp, bmp, ico, icns, tiff, jp2, \
            avif, jxl). Animations keep their frames, durations and loop count (APNG, GIF, WebP, AVIF, JPEG XL); JPEG, \
            JPEG 2000 and BMP take the first frame; ICO and ICNS store each frame as an icon. A multi-page input (TIFF, \
            ICNS) written as TIFF or ICNS keeps its pages. HEIC and SVG are read only; an SVG is drawn at the size \
            --width/--height ask for (larger than its own too), not drawn and then scaled. \
            Steps run in this order: EXIF orientation, --crop, --rotate, --flip, --flop, the resize (--width/--height \
            with --fit), --blur, --sharpen, --grayscale, then flattening onto --background when OUT has no alpha.
            """
    )

    @Argument(help: "The input image.")
    var input: String

    @Argument(help: "The output file.")
    var output: String

    @Option(help: "Output type: png, apng, gif, jpg, webp, bmp, ico, icns, tiff, jp2, avif or jxl (default: from OUT's extension).")
    var type: String?

    @Option(help: "Quality 0...1 for the lossy types (defaults: 0.9 JPEG, JPEG 2000 and JPEG XL, 0.8 WebP, 0.75 AVIF).")
    var quality: Double?

    @Flag(help: "Lossless WebP, JPEG 2000, AVIF or JPEG XL.")
    var lossless = false

    @Option(help: "Plays of the animation, 0 = forever (default: the input's).")
    var loop: Int?

    @Option(help: "Width of the box to resize into, in pixels.")
    var width: Int?

    @Option(help: "Height of the box to resize into, in pixels.")
    var height: Int?

    @Option(help: "How the image meets the box: inside, cover, contain, fill or outside (default inside).")
    var fit: String = "inside"

    @Option(
        help:
            "Where cover crops and contain pads: centre, north, south, east, west, northeast, northwest, southeast, southwest, entropy, attention, or FX,FY (fractions 0...1)."
    )
    var gravity: String = "centre"

    @Option(help: "Resampling kernel: lanczos3, lanczos2, mitchell, catmull-rom, linear, box or nearest (default lanczos3).")
    var kernel: String = "lanczos3"

    @Flag(help: "Let an image smaller than the box grow.")
    var enlarge = false

    @Option(help: "Keep the rectangle X,Y,W,H of the (upright) input, before resizing.")
    var crop: String?

    @Option(help: "Turn clockwise by 90, 180 or 270 degrees.")
    var rotate: Int?

    @Flag(help: "Mirror top to bottom.")
    var flip = false

    @Flag(help: "Mirror left to right.")
    var flop = false

    @Flag(name: .customLong("no-auto-orient"), help: "Keep the stored orientation instead of turning the image upright by its EXIF tag.")
    var noAutoOrient = false

    @Option(help: "Gaussian blur with this sigma, in pixels (0.3...1000).")
    var blur: Double?

    @Option(help: "Unsharp mask with this sigma, in pixels (0.3...1000).")
    var sharpen: Double?

    @Flag(help: "Convert to grey (Rec. 709 luma).")
    var grayscale = false

    @Option(help: "RRGGBB[AA]: the padding of --fit contain, and what transparent pixels show on formats without alpha (default ffffff).")
    var background: String?

    @Flag(name: .customLong("keep-icc"), help: "Keep the source's colour profile instead of converting to sRGB.")
    var keepICC = false

    @Flag(
        help:
            "Write no metadata (EXIF, XMP, colour profile); by default EXIF (its orientation reset when the image was turned upright) and XMP are kept for JPEG, PNG and WebP."
    )
    var strip = false

    @Option(help: "TIFF compression: lzw or deflate (default lzw).")
    var compression: String?

    @Option(help: "Encoder effort 0...9: more is smaller and slower (default: Pillow's speed).")
    var effort: Int?

    func validate() throws {
        if let quality, !(0...1).contains(quality) { throw ValidationError("--quality must be between 0 and 1") }
        if let loop, loop < 0 { throw ValidationError("--loop must be 0 or more") }
        if let width, width < 1 { throw ValidationError("--width must be 1 or more pixels") }
        if let height, height < 1 { throw ValidationError("--height must be 1 or more pixels") }
        if let effort, !(0...9).contains(effort) { throw ValidationError("--effort must be 0...9") }
        if let rotate, ![90, 180, 270].contains(rotate) { throw ValidationError("--rotate must be 90, 180 or 270") }
        for (flag, sigma) in [("--blur", blur), ("--sharpen", sharpen)] {
            if let sigma, !(sigma.isFinite && sigma >= 0.3 && sigma <= Bitmap.maxFilterSigma) {
                throw ValidationError("\(flag) must be a sigma of 0.3...\(Int(Bitmap.maxFilterSigma)) pixels")
            }
        }
        _ = try outputType()
        _ = try tiffCompression()
        _ = try chain()
        _ = try backgroundColor()
    }

    private func outputType() throws -> ImageType {
        let name = type ?? URL(fileURLWithPath: output).pathExtension
        guard let type = ImageType(fileExtension: name) else {
            throw ValidationError("unknown output type '\(name)': use --type png, apng, gif, jpg, webp, bmp, ico, icns, tiff, jp2, avif or jxl")
        }
        guard type.isEncodable else { throw ValidationError("\(type.rawValue) cannot be written") }
        return type
    }

    private func tiffCompression() throws -> ImageEncoder.TIFFCompression {
        guard let compression else { return .lzw }
        guard let value = ImageEncoder.TIFFCompression(rawValue: compression) else {
            throw ValidationError("--compression must be lzw or deflate")
        }
        return value
    }

    private func backgroundColor() throws -> RGBA {
        guard let background else { return RGBA(255, 255, 255) }
        guard let colour = RGBA(hex: background) else { throw ValidationError("--background must be RRGGBB or RRGGBBAA hexadecimal") }
        return colour
    }

    /// The steps the flags ask for, in the documented order; `enlarging` lets the resize grow the
    /// image whatever `--enlarge` says (for a drawing, which is made at the size asked for).
    private func chain(enlarging: Bool = false) throws -> ProcessingChain {
        var chain = ProcessingChain()
        if let crop {
            let numbers = crop.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let w = numbers[2], let h = numbers[3],
                x >= 0, y >= 0, w > 0, h > 0
            else {
                throw ValidationError("--crop must be X,Y,W,H: whole pixels, X and Y 0 or more, W and H 1 or more")
            }
            chain = chain.cropped(to: PixelRect(x: x, y: y, width: w, height: h))
        }
        if let rotate { chain = chain.rotated(QuarterTurn(rawValue: rotate)!) }
        if flip { chain = chain.appending(.flip) }
        if flop { chain = chain.appending(.flop) }
        guard let fitMode = FitMode(rawValue: fit) else {
            throw ValidationError("--fit must be inside, cover, contain, fill or outside")
        }
        guard let gravityValue = Gravity(parsing: gravity) else {
            throw ValidationError("--gravity must be centre, a compass point (north ... southwest), entropy, attention or FX,FY with fractions 0...1")
        }
        guard let kernelValue = ResamplingKernel(commandLineName: kernel) else {
            throw ValidationError("--kernel must be lanczos3, lanczos2, mitchell, catmull-rom, linear, box or nearest")
        }
        if width != nil || height != nil {
            let resize = Resize(
                width: width, height: height, fit: fitMode, gravity: gravityValue, enlarge: enlarge || enlarging,
                background: try backgroundColor(), options: ResizeOptions(kernel: kernelValue))
            chain = chain.resized(resize)
        }
        if let blur { chain = chain.blurred(sigma: blur) }
        if let sharpen { chain = chain.sharpened(sigma: sharpen) }
        if grayscale { chain = chain.grayscaled() }
        return chain
    }

    func run() throws {
        let type = try outputType()
        var chain = try chain()
        if !type.storesAlpha { chain = chain.appending(.flatten(background: try backgroundColor())) }
        let data = try ImageInput.read(input)
        var options = ImageDecoder.Options()
        options.appliesOrientation = !noAutoOrient
        options.convertsToSRGB = !keepICC
        var decoder: ImageDecoder
        let original: (width: Int, height: Int)
        do {
            decoder = try ImageDecoder(data: data, options: options)
            original = (decoder.orientedWidth, decoder.orientedHeight)
            if decoder.type == .svg {
                // A drawing is made at the size the resize asks for, larger too.
                chain = try self.chain(enlarging: true)
                if !type.storesAlpha { chain = chain.appending(.flatten(background: try backgroundColor())) }
                if let scale = chain.vectorScale(sourceWidth: original.width, sourceHeight: original.height) {
                    options.vectorScale = scale
                    decoder = try ImageDecoder(data: data, options: options)
                }
            } else if decoder.frameCount == 1, decoder.compositesFrames,
                let side = chain.shrinkOnLoad(sourceWidth: original.width, sourceHeight: original.height)
            {
                // Shrink-on-load: when the chain starts by shrinking, decode no larger than it needs.
                options.shrinkOnLoad = side
                decoder = try ImageDecoder(data: data, options: options)
            }
        } catch let error as ImageError {
            throw ToolFailure.notFound("\(input): \(error)")
        }
        var encoder = ImageEncoder(type: type)
        if let quality { encoder.quality = quality }
        encoder.lossless = lossless
        encoder.effort = effort
        encoder.tiffCompression = try tiffCompression()
        encoder.loopCount = loop ?? decoder.loopCount
        encoder.colorProfile = keepICC && !strip ? decoder.decodedColorProfile : nil
        if !strip {
            encoder.exif = decoder.exifForUprightPixels
            encoder.xmp = decoder.xmp
        }
        // Pages survive only into the types that hold pages.
        let usesPages = decoder.frameCount == 1 && decoder.pageCount > 1 && (type == .tiff || type == .icns)
        for index in 0..<(usesPages ? decoder.pageCount : decoder.frameCount) {
            let frame = usesPages ? try decoder.pageForTool(index, file: input) : try decoder.frameForTool(index, file: input)
            let processed: Bitmap
            do {
                // Sizes come from the original, whatever scale the decoder shrank or drew it at.
                let scaled = options.shrinkOnLoad != nil || options.vectorScale != 1
                processed = try chain.apply(to: frame, decodedFrom: scaled && !usesPages ? original : nil)
            } catch {
                throw ToolFailure.usage("\(input): \(error)")
            }
            encoder.addFrame(processed, duration: usesPages ? 0 : decoder.frameInfos[index].duration)
        }
        do {
            try encoder.encode(to: URL(fileURLWithPath: output))
        } catch {
            throw ToolFailure.failure(ToolFailure.message(about: output, error))
        }
    }
}

extension ResamplingKernel {
    /// The kernel the command line names (`catmull-rom` for ``catmullRom``).
    init?(commandLineName name: String) {
        self.init(rawValue: name == "catmull-rom" ? "catmullRom" : name)
    }
}

extension ImageInput {
    init(file: String) {
        self.init()
        self.file = file
    }
}

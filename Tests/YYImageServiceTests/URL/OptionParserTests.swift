import Foundation
import Testing
import YYImage

@testable import YYImageService

/// Every option under its full and short names, presets, and the values that are refused.
@Suite struct OptionParserTests {
    private let parser = OptionParser(
        presets: [
            "thumb": ["rs:fill:100:100", "q:60"], "sharp": ["sh:1"], "nested": ["pr:thumb", "bl:2"], "loop": ["pr:loop"],
            "test1": ["pr:test2", "w:10"], "test2": ["pr:test1", "h:20"],
        ],
        maxResultSide: 8192, watermarkIdentity: "logo")

    private func parse(_ segments: String...) throws -> ProcessingOptions {
        try parser.parse(segments)
    }

    /// One option, its short name, and what it sets.
    struct Case: Sendable, CustomTestStringConvertible {
        let full: String
        let short: String
        let check: @Sendable (ProcessingOptions) -> Bool
        var testDescription: String { full }
    }

    static let cases: [Case] = [
        Case(full: "resize:fill:300:200:1:1", short: "rs:fill:300:200:1:1") {
            $0.resizingType == .fill && $0.width == 300 && $0.height == 200 && $0.enlarge && $0.extend
        },
        Case(full: "size:30:20:t", short: "s:30:20:t") { $0.width == 30 && $0.height == 20 && $0.enlarge && !$0.extend },
        Case(full: "resizing_type:fill-down", short: "rt:fill-down") { $0.resizingType == .fillDown },
        Case(full: "width:640", short: "w:640") { $0.width == 640 },
        Case(full: "height:480", short: "h:480") { $0.height == 480 },
        Case(full: "dpr:2", short: "dpr:2") { $0.dpr == 2 },
        Case(full: "enlarge:true", short: "el:1") { $0.enlarge },
        Case(full: "extend:1:so", short: "ex:1:so") { $0.extend && $0.extendGravity == .south },
        Case(full: "gravity:noea", short: "g:noea") { $0.gravity == .northEast },
        Case(full: "gravity:sm", short: "g:sm") { $0.gravity == .attention },
        Case(full: "gravity:soea:10:0.25", short: "g:soea:10:0.25") { $0.gravity == .southEast && $0.gravityOffset == .init(x: 10, y: 0.25) },
        Case(full: "extend:1:we:-5", short: "ex:1:we:-5") { $0.extendGravity == .west && $0.extendOffset == .init(x: -5, y: 0) },
        Case(full: "resize:fill:10:10:0:1:no:0:3", short: "rs:fill:10:10:0:1:no:0:3") { $0.extendOffset == .init(x: 0, y: 3) },
        Case(full: "gravity:fp:0.25:0.75", short: "g:fp:0.25:0.75") { $0.gravity == .focalPoint(x: 0.25, y: 0.75) },
        Case(full: "crop:0.5:100:we", short: "c:0.5:100:we") { $0.crop == .init(width: 0.5, height: 100, gravity: .west) },
        Case(full: "trim:20", short: "t:20") { $0.trimThreshold == 20 && $0.trimColor == nil },
        Case(full: "trim:10:fff:1", short: "t:10:ffffff:t:0") {
            $0.trimThreshold == 10 && $0.trimColor == RGBA(255, 255, 255) && $0.trimEqualHorizontal && !$0.trimEqualVertical
        },
        Case(full: "trim:", short: "t::00ff00") { $0.trimThreshold == nil && $0.cacheKey == ProcessingOptions().cacheKey },
        Case(full: "background:fff", short: "bg:ffffff") { $0.background == RGBA(255, 255, 255) },
        Case(full: "rotate:270", short: "rot:-90") { $0.rotation == 270 },
        Case(full: "auto_rotate:false", short: "ar:0") { !$0.autoRotate },
        Case(full: "background:255:0:128", short: "bg:ff0080") { $0.background == RGBA(255, 0, 128) },
        Case(full: "blur:2.5", short: "bl:2.5") { $0.blurSigma == 2.5 },
        Case(full: "sharpen:0.7", short: "sh:0.7") { $0.sharpenSigma == 0.7 },
        Case(full: "quality:55", short: "q:55") { $0.quality == 55 && $0.effectiveQuality(for: .jpeg) == 55 },
        Case(full: "format_quality:webp:70:avif:40", short: "fq:webp:70:avif:40") {
            $0.effectiveQuality(for: .webp) == 70 && $0.effectiveQuality(for: .avif) == 40 && $0.effectiveQuality(for: .jpeg) == 80
        },
        Case(full: "format:webp", short: "f:webp") { $0.format == .webp },
        Case(full: "ext:jpg", short: "f:jpeg") { $0.format == .jpeg },
        Case(full: "strip_metadata:0", short: "sm:f") { !$0.stripMetadata },
        Case(full: "cachebuster:v2", short: "cb:v2") { $0.cacheBuster == "v2" },
        Case(full: "max_bytes:10000", short: "mb:10000") { $0.maxBytes == 10000 },
        Case(full: "zoom:2:3", short: "z:2:3") { $0.zoomX == 2 && $0.zoomY == 3 },
        Case(full: "zoom:1.5", short: "z:1.5") { $0.zoomX == 1.5 && $0.zoomY == 1.5 },
        Case(full: "min-width:100", short: "mw:100") { $0.minWidth == 100 },
        Case(full: "min-height:50", short: "mh:50") { $0.minHeight == 50 },
        Case(full: "flip:1:0", short: "fl:t") { $0.flipHorizontal && !$0.flipVertical },
        Case(full: "extend_aspect_ratio:1:so", short: "exar:1:so") { $0.extendAspectRatio && $0.extendAspectRatioGravity == .south },
        Case(full: "extend_ar:true", short: "exar:1") { $0.extendAspectRatio && $0.extendAspectRatioGravity == .center },
        Case(full: "padding:1:2", short: "pd:1:2") { $0.padding == .init(top: 1, right: 2, bottom: 1, left: 2) },
        Case(full: "padding:0", short: "pd:0:0") { $0.padding == nil },
        Case(full: "pixelate:5", short: "pix:5") { $0.pixelateSize == 5 },
        Case(full: "filename:a%20b", short: "fn:YSBi:1") { $0.filename == "a b" },
        Case(full: "return_attachment:1", short: "att:t") { $0.returnAttachment },
        Case(full: "expires:4102444800", short: "exp:0") { $0.cacheKey == ProcessingOptions().cacheKey },
        Case(full: "skip_processing:png:JPG", short: "skp:jpeg:png") { $0.skipProcessing == [.png, .jpeg] },
        Case(full: "raw:true", short: "raw:1") { $0.raw && $0.cacheKey == ProcessingOptions().cacheKey },
        Case(full: "keep_copyright:0", short: "kcr:f") { !$0.keepCopyright },
        Case(full: "strip_color_profile:false", short: "scp:0") { !$0.stripColorProfile },
        Case(full: "enforce_thumbnail:1", short: "eth:t") { $0.enforceThumbnail },
        Case(full: "preserve_hdr:1", short: "ph:t") { $0.cacheKey == ProcessingOptions().cacheKey },
        Case(full: "watermark:0.5:soea:10:5:0.2", short: "wm:0.5:soea:10:5:0.2") {
            $0.watermark == .init(opacity: 0.5, image: "logo", position: .southEast, offset: .init(x: 10, y: 5), scale: 0.2)
        },
        Case(full: "watermark:1:re", short: "wm:1:re") { $0.watermark?.tiled == true },
        Case(full: "preset:thumb", short: "pr:thumb") { $0.resizingType == .fill && $0.width == 100 && $0.quality == 60 },
    ]

    @Test(arguments: cases)
    func anOptionSetsTheSameUnderItsFullAndShortName(_ option: Case) throws {
        let full = try parse(option.full)
        let short = try parse(option.short)
        #expect(option.check(full), "\(option.full)")
        #expect(option.check(short), "\(option.short)")
        #expect(full.cacheKey == short.cacheKey)
    }

    @Test func defaultsAreImgproxys() throws {
        let options = try parse()
        #expect(options.resizingType == .fit && options.width == 0 && options.height == 0 && options.dpr == 1)
        #expect(!options.enlarge && !options.extend && options.autoRotate && options.stripMetadata)
        #expect(options.effectiveQuality(for: .jpeg) == 80 && options.effectiveQuality(for: .webp) == 79)
        #expect(options.effectiveQuality(for: .avif) == 63 && options.effectiveQuality(for: .jpegXL) == 77)
    }

    @Test func laterOptionsOverrideEarlierOnesAndEmptyArgumentsKeepWhatWasSet() throws {
        let options = try parse("w:100", "rs:fill::50", "w:70")
        #expect(options.width == 70 && options.height == 50 && options.resizingType == .fill)
    }

    @Test func presetsExpandWhereTheyStandAndTheDefaultPresetAppliesFirst() throws {
        #expect(try parse("pr:thumb", "q:90").quality == 90)
        #expect(try parse("q:90", "pr:thumb").quality == 60)
        let nested = try parse("pr:nested:sharp")
        #expect(nested.width == 100 && nested.blurSigma == 2 && nested.sharpenSigma == 1)
        let withDefault = OptionParser(presets: ["default": ["q:42", "sh:0.5"]], maxResultSide: 8192)
        #expect(try withDefault.parse([]).quality == 42)
        #expect(try withDefault.parse(["q:70"]).quality == 70)
        #expect(try withDefault.parse(["q:70"]).sharpenSigma == 0.5)
    }

    @Test func aPresetLoopIsSkippedWhereItClosesAndTheRestApplies() throws {
        // As imgproxy's presets test: test1 → test2 → (test1 skipped); both sizes are set.
        let looped = try parse("pr:test1")
        #expect(looped.width == 10 && looped.height == 20)
        #expect(try parse("pr:loop", "w:5").width == 5)
    }

    @Test func theCacheKeyIgnoresOrderAndSpellingButNotValues() throws {
        #expect(try parse("w:10", "h:20").cacheKey == parse("height:20", "width:10").cacheKey)
        #expect(try parse("w:10").cacheKey != parse("w:11").cacheKey)
        #expect(try parse("cb:1").cacheKey != parse("cb:2").cacheKey)
        #expect(try parse("fq:webp:70:avif:40").cacheKey == parse("fq:avif:40:webp:70").cacheKey)
    }

    @Test(arguments: [
        ("pad:10", "unsupported option 'pad'"),
        ("rs:stretch:10:10", "option rs: 'stretch' is not fit, fill, fill-down, force or auto"),
        ("w:-1", "option w: '-1' is not an integer in 0...16777216"),
        ("w:abc", "option w: 'abc' is not an integer in 0...16777216"),
        ("w:1:2", "option w: 2 arguments, expected 1"),
        ("dpr:0", "option dpr: '0' is not a number in 0.01...8.0"),
        ("dpr:9", "option dpr: '9' is not a number in 0.01...8.0"),
        ("el:maybe", "option el: 'maybe' is not a boolean (1, t, true, 0, f, false)"),
        ("g:up", "option g: 'up' is not a gravity (no, so, ea, we, noea, nowe, soea, sowe, ce, sm, fp)"),
        ("g:sm:1:0", "option g: gravity sm takes no offsets"),
        ("g:no:1:2:3", "option g: 4 arguments, expected 1 to 3"),
        ("g:no:x", "option g: 'x' is not a number in -16777216.0...16777216.0"),
        ("g:fp:2:0.5", "option g: '2' is not a number in 0.0...1.0"),
        ("rot:45", "option rotate: 45 is not a multiple of 90"),
        ("bg:12345", "option bg: '12345' is not a hex colour (RGB, RRGGBB or RRGGBBAA)"),
        ("bg:300:0:0", "option bg: '300' is not an integer in 0...255"),
        ("q:101", "option q: '101' is not an integer in 0...100"),
        ("fq:webp", "option format_quality: give format:quality pairs"),
        ("f:heic", "option f: 'heic' is not an output format (jpg, png, webp, avif, gif, jxl, tiff, bmp, ico, svg)"),
        ("t:10:red", "option t: 'red' is not a hex colour (RGB, RRGGBB or RRGGBBAA)"),
        ("t:10::maybe", "option t: 'maybe' is not a boolean (1, t, true, 0, f, false)"),
        ("t:10:fff:1:1:1", "option t: 5 arguments, expected 1 to 4"),
        ("pr:missing", "option preset: unknown preset 'missing'"),
        ("mb:-5", "option mb: '-5' is not an integer in 0...2147483647"),
        ("bl:-1", "option bl: '-1' is not a number in 0.0...1000.0"),
        ("sh:1001", "option sh: '1001' is not a number in 0.0...1000.0"),
        ("bl:nan", "option bl: 'nan' is not a number in 0.0...1000.0"),
        ("t:256", "option t: '256' is not a number in 0.0...255.0"),
        ("c:-1:10", "option c: '-1' is not a number in 0.0...16777216.0"),
        ("z:0", "option z: '0' is not a number in 0.0...16777216.0"),
        ("z:1:-2", "option z: '-2' is not a number in 0.0...16777216.0"),
        ("ex:1:sm", "option ex: 'sm' is not a gravity without smart detection (no, so, ea, we, noea, nowe, soea, sowe, ce, fp)"),
        ("exar:1:sm", "option exar: 'sm' is not a gravity without smart detection (no, so, ea, we, noea, nowe, soea, sowe, ce, fp)"),
        ("pd:-1", "option pd: '-1' is not an integer in 0...16777216"),
        ("pd:1:2:3:4:5", "option pd: 5 arguments, expected 1 to 4"),
        ("fl:1:2", "option fl: '2' is not a boolean (1, t, true, 0, f, false)"),
        ("pix:x", "option pix: 'x' is not an integer in 0...16777216"),
        ("exp:soon", "option exp: 'soon' is not a unix timestamp"),
        ("fn:%FF", "option fn: '%FF' is not a percent-escaped file name"),
        ("fn:!!:1", "option fn: '!!' is not a file name in URL-safe base64"),
    ])
    func aBadOptionIsABadRequestThatNamesIt(segment: String, message: String) {
        #expect(throws: ServiceError.badRequest(message)) { try parser.parse([segment]) }
    }

    @Test func aBoxOverTheResultLimitIsRefusedBeforeAnythingIsFetched() {
        #expect(throws: ServiceError.unprocessable("width 10000 is over the result limit of 8192 pixels")) { try parse("w:5000", "dpr:2") }
        #expect(throws: ServiceError.unprocessable("height 9000 is over the result limit of 8192 pixels")) { try parse("h:9000") }
        #expect(throws: ServiceError.unprocessable("width 10000 is over the result limit of 8192 pixels")) { try parse("w:100", "z:100") }
        #expect(throws: ServiceError.unprocessable("min-height 9000 is over the result limit of 8192 pixels")) { try parse("mh:4500", "dpr:2") }
    }

    @Test func anExpiredURLIsNotFoundAndAFutureOneIsKept() throws {
        var parser = OptionParser(presets: [:], maxResultSide: 8192)
        parser.now = { Date(timeIntervalSince1970: 1_000_000) }
        #expect(throws: ServiceError.notFound("the URL has expired")) { try parser.parse(["exp:999999"]) }
        #expect(try parser.parse(["exp:1000001"]).cacheKey == ProcessingOptions().cacheKey)
        #expect(try parser.parse(["exp:-5"]).cacheKey == ProcessingOptions().cacheKey)
    }

    /// What the parser accepts, the library takes: the ranges come from one table
    /// (`ProcessingLimits`), so no value that parses fails later as a 422. imgproxy's own parser
    /// tests take `blur:0.2` and `sharpen:0.2`: near-identity filters, not errors.
    @Test(arguments: ["bl:0.2", "sh:0.2", "bl:0.0001", "sh:1000", "t:0", "t:255", "w:16777216", "rs:fill:16777216:1", "c:16777216:1"])
    func aValueAtTheParsersBoundsIsOneTheLibraryTakes(segment: String) throws {
        let options = try OptionParser(presets: [:], maxResultSide: ProcessingLimits.sides.upperBound).parse([segment])
        var frame = Bitmap(width: 12, height: 8)
        for y in 0..<8 { for x in 0..<12 { frame[x, y] = RGBA(UInt8(x * 20), UInt8(y * 30), 90) } }
        let plan = try RenderPlan(options: options, frame: frame, outputType: .png)
        let out = try plan.chain.apply(to: frame)
        #expect(out.width > 0 && out.height > 0)
    }

    /// Extreme zooms, minimum sides, paddings and offsets are planned with every side at least
    /// one pixel, or refused with a typed error: never a trap on a NaN or an overflow.
    @Test(arguments: [
        "z:5e-324/mw:100", "rs:fit:1:1/z:5e-324/mw:100", "z:5e-324:1e-300/mh:16777216", "z:16777216/el:1", "pd:16777216/dpr:8",
        "g:ce:-16777216:16777216/rs:fill:5:5",
        "rs:fill-down:16777216:1/z:0.0001", "exar:1/rs:fit:1:16777216",
    ])
    func extremeGeometryIsPlannedWithoutTrapping(options: String) throws {
        let parser = OptionParser(presets: [:], maxResultSide: ProcessingLimits.sides.upperBound)
        let parsed = try parser.parse(options.split(separator: "/").map(String.init))
        do {
            let plan = try #require(try RenderPlan(beforeDecoding: parsed, sourceSize: (6000, 4000), outputType: .png))
            #expect(plan.outputSize.width >= 1 && plan.outputSize.height >= 1, "\(options): \(plan.outputSize)")
        } catch is ImageError {
            // Refused: a typed error is what hostile geometry should get.
        }
    }
}

import Foundation
import Testing
import YYImage

@testable import YYImageService

/// The cases of imgproxy's own parser tests (`options/parser/processing_options_test.go`, which
/// also holds its preset cases), each as a request to an in-process service with a local source
/// (photo.jpg, 640 × 480) in place of imgproxy's `http://images.dev/lorem/ipsum.jpg`: what imgproxy's
/// parser accepts answers 200 (with the size or format the case checks), what it refuses is
/// refused. Not carried over, as we have no such setting: `IMGPROXY_ARGUMENTS_SEPARATOR`,
/// `IMGPROXY_URL_REPLACEMENTS`, `IMGPROXY_BASE64_URL_INCLUDES_FILENAME` and the
/// `IMGPROXY_ENFORCE_WEBP`/`_AVIF`/`_JXL` switches (negotiation here only prefers).
extension ProcessingOptionTests {
    static let photo = "local:///photo.jpg"
    static var encodedPhoto: String { Array(photo.utf8).base64URLEncoded }

    /// Cases that need no setting: the path after `/insecure`, and the status (and, for a 200,
    /// the content type and size) imgproxy's test implies.
    static let parserCases: [(path: String, status: Int, type: String?, size: (Int, Int)?)] = [
        ("/size:100:100/\(encodedPhoto).png", 200, "image/png", (100, 75)),
        ("/size:100:100/\(encodedPhoto)", 200, "image/jpeg", (100, 75)),
        ("/size:100:100/plain/\(photo)@png", 200, "image/png", (100, 75)),
        ("/size:100:100/plain/\(photo)", 200, "image/jpeg", (100, 75)),
        ("/size:100:100/plain/local%3A%2F%2F%2Fphoto.jpg@png", 200, "image/png", (100, 75)),
        ("/format:webp/plain/\(photo)", 200, "image/webp", nil),
        ("/resize:fill:100:200:1/plain/\(photo)", 200, nil, (100, 200)),
        ("/resizing_type:fill/plain/\(photo)", 200, nil, (640, 480)),
        ("/size:100:200:1/plain/\(photo)", 200, nil, (100, 75)),
        ("/width:100/plain/\(photo)", 200, nil, (100, 75)),
        ("/height:100/plain/\(photo)", 200, nil, (133, 100)),
        ("/enlarge:1/plain/\(photo)", 200, nil, (640, 480)),
        ("/extend:1:so:10:20/plain/\(photo)", 200, nil, nil),
        ("/extend:1:sm/plain/\(photo)", 400, nil, nil),
        ("/extend:1:re/plain/\(photo)", 400, nil, nil),
        ("/gravity:soea/plain/\(photo)", 200, nil, nil),
        ("/gravity:fp:0.5:0.75/plain/\(photo)", 200, nil, nil),
        ("/gravity:re/plain/\(photo)", 400, nil, nil),
        ("/crop:100:200/plain/\(photo)", 200, nil, (100, 200)),
        ("/crop:100:200:nowe:10:20/plain/\(photo)", 200, nil, (100, 200)),
        ("/crop:100:200:re/plain/\(photo)", 400, nil, nil),
        ("/quality:55/plain/\(photo)", 200, "image/jpeg", nil),
        ("/background:128:129:130/plain/\(photo)", 200, nil, nil),
        ("/background:ffddee/plain/\(photo)", 200, nil, nil),
        ("/background:fff/background:/plain/\(photo)", 200, nil, nil),
        ("/blur:0.2/plain/\(photo)", 200, nil, nil),
        ("/sharpen:0.2/plain/\(photo)", 200, nil, nil),
        ("/dpr:2/plain/\(photo)", 200, nil, nil),
        ("/watermark:0.5:soea:10:20:0.6/plain/\(photo)", 200, nil, nil),
        ("/cachebuster:123/plain/\(photo)", 200, nil, nil),
        ("/strip_metadata:true/plain/\(photo)", 200, nil, nil),
        ("/skp:jpg:png/plain/\(photo)", 200, "image/jpeg", (640, 480)),
        ("/skp:jpg:png:bad_format/plain/\(photo)", 400, nil, nil),
        ("/exp:32503669200/plain/\(photo)", 200, nil, nil),
        ("/exp:1609448400/plain/\(photo)", 404, nil, nil),
    ]

    @Test func imgproxysParserCasesAnswerAsImgproxysParserDoes() async throws {
        try await withService { service in
            for c in Self.parserCases {
                let reply = try await service.get("/insecure" + c.path)
                #expect(reply.status == c.status, "\(c.path): \(reply.status) \(reply.errorMessage ?? "")")
                guard c.status == 200, reply.status == 200 else { continue }
                if let type = c.type { #expect(reply.header("Content-Type") == type, "\(c.path)") }
                if let (width, height) = c.size {
                    let decoder = try reply.image()
                    #expect(
                        decoder.canvasWidth == width && decoder.canvasHeight == height, "\(c.path): \(decoder.canvasWidth)x\(decoder.canvasHeight)")
                }
            }
        }
    }

    @Test func imgproxysPresetCasesApplyPresetsDefaultsAndSkipLoops() async throws {
        let presets = [
            "test1": ["resizing_type:fill"], "test2": ["blur:0.2", "quality:50"], "default": ["resizing_type:fill", "blur:0.2", "quality:50"],
            "loop1": ["resizing_type:fill", "preset:loop2"], "loop2": ["blur:0.2", "preset:loop1"],
        ]
        try await withService({ $0.presets = presets }) { service in
            for path in ["/preset:test1:test2/w:100/h:100", "/quality:70/w:100/h:100", "/preset:loop1/w:100/h:100"] {
                let reply = try await service.get("/insecure\(path)/plain/\(Self.photo)")
                #expect(reply.status == 200, "\(path): \(reply.errorMessage ?? "")")
                // The presets' fill (and the default preset's) makes the result the box.
                let image = try reply.image()
                #expect(image.canvasWidth == 100 && image.canvasHeight == 100, "\(path)")
            }
        }
    }

    @Test func imgproxysBaseURLOnlyPresetsAndAllowedOptionCases() async throws {
        try await withService({ $0.baseURL = "local:///" }) { service in
            let encoded = Array("photo.jpg".utf8).base64URLEncoded
            for path in ["/size:100:100/\(encoded).png", "/size:100:100/plain/photo.jpg@png", "/size:100:100/plain/photo%2Ejpg@png"] {
                let reply = try await service.get("/insecure" + path)
                #expect(reply.status == 200 && reply.header("Content-Type") == "image/png", "\(path): \(reply.errorMessage ?? "")")
            }
        }
        try await withService({
            $0.onlyPresets = true
            $0.presets = ["test1": ["blur:0.2"], "test2": ["quality:50"]]
        }) { service in
            for path in ["/test1:test2/plain/\(Self.photo)@png", "/test1:test2/\(Self.encodedPhoto).png"] {
                let reply = try await service.get("/insecure" + path)
                #expect(reply.status == 200 && reply.header("Content-Type") == "image/png", "\(path): \(reply.errorMessage ?? "")")
            }
        }
        try await withService({
            $0.allowedProcessingOptions = ["w", "h", "pr"]
            $0.presets = ["test1": ["blur:0.2"]]
        }) { service in
            for (options, status) in [
                ("w:100/h:200", 200), ("w:100/h:200/blur:10", 403), ("w:100/h:200/pr:test1", 200), ("w:100/h:200/pr:test1/blur:10", 403),
            ] {
                let reply = try await service.get("/insecure/\(options)/\(Self.encodedPhoto).png")
                #expect(reply.status == status, "\(options): \(reply.status)")
                if status == 403 { #expect(reply.errorMessage?.contains("forbidden processing option blur") == true) }
            }
        }
    }

    @Test func imgproxysClientHintAndFormatDetectionCases() async throws {
        try await withService({
            $0.enablesClientHints = true
            $0.negotiatesJPEGXL = true
        }) { service in
            let path = "/insecure/plain/\(Self.photo)@png"
            // No hints, width only, DPR only (no box: the source's size), width and DPR (device
            // pixels: 100 wide at DPR 2), and a URL that sets both keeps its own.
            for (hints, width) in [
                ([(String, String)](), 640), ([("Sec-CH-Width", "100")], 100), ([("Sec-CH-DPR", "2")], 640),
                ([("Sec-CH-Width", "100"), ("Sec-CH-DPR", "2")], 100),
            ] {
                let reply = try await service.get(path, headers: hints)
                let resultWidth = reply.status == 200 ? try reply.image().canvasWidth : 0
                #expect(resultWidth == width, "\(hints): \(reply.status)")
            }
            let redefined = try await service.get(
                "/insecure/width:150/dpr:3.0/plain/\(Self.photo)@png", headers: [("Sec-CH-Width", "100"), ("Sec-CH-DPR", "2")])
            #expect(try redefined.image().canvasWidth == 450)
            // Detection: each format the client names is chosen when the URL names none, and
            // an extension in the URL wins (we prefer, never enforce).
            for (accept, type) in [("image/webp", "image/webp"), ("image/avif", "image/avif"), ("image/jxl", "image/jxl")] {
                let detected = try await service.get("/insecure/plain/\(Self.photo)", headers: [("Accept", accept)])
                #expect(detected.header("Content-Type") == type, "\(accept)")
                let named = try await service.get(path, headers: [("Accept", accept)])
                #expect(named.header("Content-Type") == "image/png", "\(accept) with @png")
            }
        }
    }
}

import Foundation
import Testing
import YYImage

@testable import YYImageService

/// Every option of imgproxy 4.0's processing page (`usage/processing.mdx`), full and short names,
/// with an argument the page allows, on a local photo: supported ones answer 200 (the security
/// options a 403 without `--allow-security-options`), those we do not build a 400 that names
/// them. The README's option table says the same, row by row.
extension ProcessingOptionTests {
    static let fallbackURL = Array("local:///block.png".utf8).base64URLEncoded

    static let supportedOptions = [
        "rs:fill:300:400:0", "resize:fit:100", "s:100:100", "size:100:100:1", "rt:fill", "resizing_type:auto", "ra:lanczos2",
        "resizing_algorithm:cubic", "w:100", "width:100", "h:100", "height:100", "mw:100", "min-width:100", "mh:100", "min-height:100",
        "z:0.5", "zoom:0.5:0.25", "dpr:2", "el:1", "enlarge:1", "ex:1:so", "extend:1", "exar:1", "extend_ar:1:no",
        "extend_aspect_ratio:1", "g:sm", "gravity:nowe:10:20", "g:fp:0.5:0.5", "c:100:100", "crop:0.5:0.5:ce", "car:1", "crop_ar:1:1",
        "crop_aspect_ratio:2", "t:10", "trim:10:fff:1:1", "pd:10", "padding:1:2:3:4", "ar:1", "auto_rotate:0", "rot:90", "rotate:180",
        "fl:1", "flip:1:1", "bg:fff", "background:255:0:0", "bga:0.5", "background_alpha:1", "a:10:1.2:0.8", "adjust::2", "br:10",
        "brightness:-10", "co:1.5", "contrast:0.5", "sa:0", "saturation:2", "mc:0.5", "monochrome:1:ff0000", "dt:1",
        "duotone:0.5:000:fff", "bl:2", "blur:0.2", "sh:1", "sharpen:0.2", "pix:5", "pixelate:5", "col:0.5:ff0000", "colorize:0.5:f00:1",
        "gr:0.5", "gradient:1:000:up:0.2:0.8", "wm:0.5", "watermark:1:soea:10:10:0.2", "wms:10:10", "watermark_size:10", "wmr:45",
        "watermark_rotate:90", "wm_rot:90", "wmsh:2", "watermark_shadow:2", "sm:1", "strip_metadata:0", "kcr:1", "keep_copyright:0",
        "scp:1", "strip_color_profile:0", "ph:1", "preserve_hdr:0", "eth:1", "enforce_thumbnail:0", "q:80", "quality:80", "fq:jpg:80",
        "format_quality:webp:70", "mb:100000", "max_bytes:0", "f:png", "format:webp", "ext:jpg", "pg:0", "page:0", "pgs:1", "pages:1",
        "da:1", "disable_animation:0", "fiu:\(fallbackURL)", "fallback_image_url:\(fallbackURL)", "skp:jpg", "skip_processing:png",
        "raw:1", "cb:abc", "cachebuster:1", "exp:0", "expires:4102444800", "fn:name", "filename:bmFtZQ:1", "att:1",
        "return_attachment:0", "pr:sharp", "preset:sharp", "hs:none", "hashsum:none", "st:cmVjdHt9", "style:cmVjdHt9", "f:best", "format:best",
        "ush:auto", "unsharp_masking:always:1:24", "ba:5:0:0:0.5:0.5", "blur_areas:5:0:0:0.5:0.5",
    ]

    static let securityOptions = [
        "msr:1", "max_src_resolution:1", "msfs:100", "max_src_file_size:100", "maf:1", "max_animation_frames:1", "mafr:1",
        "max_animation_frame_resolution:1", "mrd:100", "max_result_dimension:100",
    ]

    /// Pro options we do not build (object detection, video, per-format encoder knobs, text
    /// watermarks, colour profiles, DPI, autoquality),
    /// and the Pro values of supported options (`g:obj`, `wm:…:ch`).
    static let unsupportedOptions = [
        "op:ce", "obj_pos:ce", "objects_position:prop", "g:obj:face", "g:objw:all:2", "bd:5", "blur_detections:5:face", "dd:1", "draw_detections:1",
        "c_obj:1",
        "crop_objects:1.2", "wmt:dGV4dA", "watermark_text:dGV4dA", "dpi:72", "cp:srgb",
        "color_profile:srgb", "icc:srgb", "aq:dssim", "autoquality:size", "jpgo:1", "jpeg_options:1", "pngo:1", "png_options:1",
        "webpo:lossy", "webp_options:lossy", "avifo:1", "avif_options:1", "vts:5", "video_thumbnail_second:5", "vtk:1",
        "video_thumbnail_keyframes:1", "vtt:1:2:2:10:10", "video_thumbnail_tile:1:2:2:10:10", "vta:1:100:5:10:10",
        "video_thumbnail_animation:1:100:5:10:10", "wm:1:ch",
    ]

    @Test func everyOptionOfImgproxysProcessingPageAnswersAsTheReadmeSays() async throws {
        try await withService({ $0.presets = ["sharp": ["sh:1"]] }) { service in
            for option in Self.supportedOptions {
                let reply = try await service.get("/insecure/\(option)/plain/local:///photo.jpg")
                #expect(reply.status == 200, "\(option): \(reply.status) \(reply.errorMessage ?? "")")
            }
            for option in Self.securityOptions {
                #expect(try await service.get("/insecure/\(option)/plain/local:///photo.jpg").status == 403, "\(option)")
            }
            for option in Self.unsupportedOptions {
                let reply = try await service.get("/insecure/\(option)/plain/local:///photo.jpg")
                #expect(reply.status == 400, "\(option): \(reply.status)")
            }
        }
    }

    @Test func theDocumentationsExampleURLsWork() async throws {
        try await withService({ $0.presets = ["sharp": ["sh:1"]] }) { service in
            let encoded = Array("local:///photo.jpg".utf8).base64URLEncoded
            let split = stride(from: 0, to: encoded.count, by: 16).map { String(encoded.dropFirst($0).prefix(16)) }.joined(separator: "/")
            for path in [
                "/insecure/preset:sharp/resize:fill:300:400:0/gravity:sm/plain/local:///photo.jpg@png",
                "/insecure/pr:sharp/rs:fill:300:400:0/g:sm/plain/local:///photo.jpg@png",
                "/insecure/pr:sharp/rs:fill:300:400:0/g:sm/\(split).png",
            ] {
                let reply = try await service.get(path)
                #expect(reply.status == 200 && reply.header("Content-Type") == "image/png", "\(path)")
                #expect(try reply.image().canvasWidth == 300, "\(path)")
            }
            // The page's encrypted source (a Pro feature) is refused.
            let encrypted = try await service.get("/insecure/enc/jwV3wUD9r4VBIzgv/ang3Hbh0vPpcm5cc/VO5rHxzonpvZjppG.png")
            #expect(encrypted.status == 400, "\(encrypted.status)")
            // The crop_aspect_ratio section's own example: enlarged to 200 × 200 at the offsets.
            let squared = try await render(service, "crop:100:200:nowe:300:400/crop_ar:1:1/f:png", "photo.jpg")
            #expect(squared.width == 200 && squared.height == 200)
        }
    }
}

import Foundation
import TestSupport
import Testing
import YYImage

@testable import YYImageService

/// imgproxy's metadata and colour options: `keep_copyright`, `strip_color_profile`,
/// `enforce_thumbnail`, `preserve_hdr`.
extension ProcessingOptionTests {
    /// A little-endian TIFF structure whose IFD0 has `entries` (tag, ASCII text), in tag order.
    static func exif(_ entries: [(tag: UInt16, text: String)]) -> Data {
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func append16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func append32(_ value: Int) { append16(value & 0xFFFF); append16(value >> 16) }
        append16(entries.count)
        var values: [UInt8] = []
        let valuesStart = 8 + 2 + entries.count * 12 + 4
        for (tag, text) in entries {
            let bytes = Array(text.utf8) + [0]
            append16(Int(tag)); append16(2); append32(bytes.count)
            if bytes.count <= 4 {
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                append32(valuesStart + values.count)
                values += bytes
            }
        }
        append32(0)
        return Data(out + values)
    }

    @Test func strippingKeepsTheEXIFCopyrightAndArtistUnlessKeepCopyrightIsOff() async throws {
        var encoder = ImageEncoder(type: .jpeg)
        encoder.exif = Self.exif([(0x010F, "Camera Maker"), (0x013B, "Ada"), (0x8298, "(c) 2026 Ada Lovelace")])
        encoder.addFrame(TestImages.gradient(width: 32, height: 32))
        try await withService(files: ["signed.jpg": try encoder.encode()]) { service in
            func exif(_ options: String) async throws -> String? {
                let reply = try await service.get("/insecure/\(options)/plain/local:///signed.jpg")
                try #require(reply.status == 200)
                return try reply.image().exif.map { String(decoding: $0, as: UTF8.self) }
            }
            // imgproxy's default: metadata stripped, the copyright notice and artist kept.
            let kept = try #require(try await exif("f:jpg"))
            #expect(kept.contains("(c) 2026 Ada Lovelace") && kept.contains("Ada") && !kept.contains("Camera Maker"))
            let webp = try #require(try await exif("f:webp"))
            #expect(webp.contains("(c) 2026 Ada Lovelace"))
            #expect(try await exif("kcr:0/f:jpg") == nil)
            let all = try #require(try await exif("sm:0/f:jpg"))
            #expect(all.contains("Camera Maker"))
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/color/icc/ghostscript/a98.icc"), "needs libgs-common's Adobe RGB profile"))
    func stripColorProfileOffKeepsTheSourceColourAndEmbedsItsProfile() async throws {
        let profile = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/a98.icc"))
        var encoder = ImageEncoder(type: .png)
        encoder.colorProfile = profile
        encoder.addFrame(Bitmap(filledWith: RGBA(100, 150, 200), width: 8, height: 8, alphaMode: .straight))
        try await withService(files: ["adobe.png": try encoder.encode()]) { service in
            func result(_ options: String) async throws -> (pixel: RGBA, profile: Data?) {
                let reply = try await service.get("/insecure/\(options)/plain/local:///adobe.png")
                try #require(reply.status == 200)
                let decoder = try reply.image()
                return (try decoder.frame(at: 0)[3, 3], decoder.colorProfile)
            }
            // The default converts to sRGB and drops the profile.
            let converted = try await result("f:png")
            #expect(converted.profile == nil && converted.pixel != RGBA(100, 150, 200))
            // Off, PNG keeps the values and carries the profile.
            let kept = try await result("scp:0/f:png")
            #expect(kept.profile == profile && kept.pixel == RGBA(100, 150, 200))
            // A format we embed no profile in gets sRGB still.
            let bmp = try await result("strip_color_profile:false/f:bmp")
            #expect(bmp.profile == nil && bmp.pixel == converted.pixel)
            // AVIF carries the profile in a `colr` box beside the source's values (lossy: within a
            // few levels of a flat colour).
            if ImageType.avif.isEncodable {
                let avif = try await result("scp:0/f:avif/q:90")
                #expect(avif.profile == profile && Self.distance(avif.pixel, RGBA(100, 150, 200)) <= 3, "\(avif.pixel)")
            }
            // JPEG XL encodes from the profile's colour; read with colour management it shows
            // the colour the sRGB result shows.
            if ImageType.jpegXL.isEncodable {
                let reply = try await service.get("/insecure/scp:0/f:jxl/q:90/plain/local:///adobe.png")
                try #require(reply.status == 200)
                var managed = ImageDecoder.Options()
                managed.convertsToSRGB = true
                let pixel = try ImageDecoder(data: reply.body, options: managed).frame(at: 0)[3, 3]
                #expect(Self.distance(pixel, converted.pixel) <= 3, "\(pixel) against \(converted.pixel)")
            }
        }
    }

    /// The largest difference of two colours' channels.
    static func distance(_ a: RGBA, _ b: RGBA) -> Int {
        max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)), abs(Int(a.a) - Int(b.a)))
    }

    @Test(.enabled(if: ImageType.heic.isDecodable && ChildProcess.systemExecutable("heif-enc") != nil, "needs heif-enc (libheif-examples)"))
    func enforceThumbnailRendersAHEICsEmbeddedThumbnail() async throws {
        let folder = TemporaryDirectory("thumbnail")
        let png = folder.appending("photo.png"), heic = folder.appending("photo.heic")
        try ImageEncoder.encode(TestImages.gradient(width: 600, height: 400), as: .png).write(to: URL(fileURLWithPath: png))
        let encoded = try ChildProcess.run(try #require(ChildProcess.systemExecutable("heif-enc")), ["-q", "60", "-t", "96", png, "-o", heic])
        try #require(encoded.status == 0, "\(encoded.standardError)")
        try await withService(files: ["photo.heic": try Data(contentsOf: URL(fileURLWithPath: heic))]) { service in
            let primary = try await render(service, "f:png", "photo.heic")
            #expect(primary.width == 600 && primary.height == 400)
            let thumbnail = try await render(service, "eth:1/f:png", "photo.heic")
            #expect(thumbnail.width == 96 && thumbnail.height == 64)
        }
    }

    @Test func preserveHDRIsCheckedAndAccepted() async throws {
        try await withService { service in
            let plain = try await service.get("/insecure/f:png/plain/local:///gradient.png")
            let asked = try await service.get("/insecure/ph:1/f:png/plain/local:///gradient.png")
            #expect(asked.status == 200 && asked.body == plain.body)
            let bad = try await service.get("/insecure/preserve_hdr:maybe/plain/local:///gradient.png")
            #expect(bad.status == 400)
        }
    }
}

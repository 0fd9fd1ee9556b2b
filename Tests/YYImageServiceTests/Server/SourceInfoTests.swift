import Foundation
import TestSupport
import Testing
import YYImage

@testable import YYImageService

/// `/info`'s description of a source: what the file is, what its metadata says, and its
/// colours and placeholder hashes.
@Suite struct SourceInfoTests {
    /// A little-endian EXIF block: IFD0 with Make, Model, an EXIF directory (DateTimeOriginal)
    /// and an empty GPS directory.
    static func exif() -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ v: Int) { out += [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func u32(_ v: Int) { u16(v & 0xFFFF); u16(v >> 16) }
        let make = Array("Acme\0".utf8), model = Array("Cam 1\0".utf8), date = Array("2024:05:01 12:34:56\0".utf8)
        let ifd0End = 8 + 2 + 4 * 12 + 4
        let (makeAt, modelAt) = (ifd0End, ifd0End + make.count)
        let exifAt = (modelAt + model.count + 1) & ~1
        let dateAt = exifAt + 2 + 12 + 4
        let gpsAt = (dateAt + date.count + 1) & ~1
        u16(4)
        u16(0x010F); u16(2); u32(make.count); u32(makeAt)
        u16(0x0110); u16(2); u32(model.count); u32(modelAt)
        u16(0x8769); u16(4); u32(1); u32(exifAt)
        u16(0x8825); u16(4); u32(1); u32(gpsAt)
        u32(0)
        out += make + model
        while out.count < exifAt { out.append(0) }
        u16(1)
        u16(0x9003); u16(2); u32(date.count); u32(dateAt)
        u32(0)
        out += date
        while out.count < gpsAt { out.append(0) }
        u16(0); u32(0)
        return out
    }

    /// A 40 × 30 JPEG, mostly (200, 40, 40), with the EXIF above, an XMP packet, Adobe RGB's
    /// profile and an IPTC (Photoshop APP13) segment.
    static func describedJPEG(profile: Data) throws -> Data {
        var bitmap = Bitmap(filledWith: RGBA(200, 40, 40), width: 40, height: 30)
        for y in 0..<5 { for x in 0..<40 { bitmap[x, y] = RGBA(20, 20, 220) } }
        var encoder = ImageEncoder(type: .jpeg)
        encoder.quality = 0.95
        encoder.exif = Data(exif())
        encoder.xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>".utf8)
        encoder.colorProfile = profile
        encoder.addFrame(bitmap)
        var jpeg = [UInt8](try encoder.encode())
        let payload = Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 0]
        jpeg.insert(contentsOf: [0xFF, 0xED, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 255)] + payload, at: 2)
        return Data(jpeg)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/color/icc/ghostscript/a98.icc"), "needs libgs-common's Adobe RGB profile"))
    func infoSaysWhatTheMetadataHoldsAndWhatThePictureLooksLike() async throws {
        let profile = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/a98.icc"))
        let root = TemporaryDirectory("info")
        try Self.describedJPEG(profile: profile).write(to: URL(fileURLWithPath: root.appending("described.jpg")))
        let service = try await ServiceHarness.inProcess { $0.localRoot = root.path }
        let reply = try await service.get("/info/insecure/plain/local:///described.jpg")
        await service.stop()
        try #require(reply.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        #expect(json["width"] as? Int == 40 && json["pages"] as? Int == 1 && json["has_alpha"] as? Bool == false)
        #expect(json["bit_depth"] as? Int == 8)
        let exif = try #require(json["exif"] as? [String: Any])
        #expect(exif["make"] as? String == "Acme" && exif["model"] as? String == "Cam 1")
        #expect(exif["date_taken"] as? String == "2024:05:01 12:34:56" && exif["has_gps"] as? Bool == true)
        #expect(json["has_xmp"] as? Bool == true && json["has_iptc"] as? Bool == true)
        #expect(json["color_profile"] as? String == "Artifex Software A98 ICC Profile")
        // Five sixths red, converted from Adobe RGB to sRGB: the dominant colour is that red.
        let dominant = try #require(json["dominant_color"] as? String)
        #expect(dominant.count == 7 && dominant.hasPrefix("#"))
        let hash = try #require(json["blurhash"] as? String)
        let average = try #require(BlurHash.averageColor(of: hash))
        #expect(average.r > 150 && average.b < 120)
        let thumbhash = try #require((json["thumbhash"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(thumbhash.count >= 5)
    }

    @Test func aPlainPictureHasNoMetadataAndItsOwnColours() throws {
        var bitmap = Bitmap(filledWith: RGBA(10, 200, 30, 255), width: 300, height: 120)
        bitmap[0, 0] = RGBA(0, 0, 0, 0)
        let info = try SourceInfo(describing: try ImageEncoder.encode(bitmap, as: .png), maxPixels: 1 << 24)
        #expect(info.exif == nil && !info.hasXmp && !info.hasIptc && info.colorProfile == nil)
        #expect(info.hasAlpha && info.bitDepth == 8)
        // Resized to 100 pixels wide, the colour may move a level.
        let (dominant, average) = (Self.levels(info.dominantColor), Self.levels(info.averageColor))
        #expect(dominant.count == 3 && zip(dominant, [10, 200, 30]).allSatisfy { abs($0 - $1) <= 2 }, "\(info.dominantColor)")
        #expect(average.count == 4 && zip(average, [10, 200, 30, 255]).allSatisfy { abs($0 - $1) <= 2 }, "\(info.averageColor)")
        #expect(BlurHash.averageColor(of: info.blurhash).map { abs(Int($0.g) - 200) <= 2 } == true)
    }

    /// The levels of `#rrggbb[aa]`.
    static func levels(_ hex: String) -> [Int] {
        let digits = Array(hex.dropFirst())
        return stride(from: 0, to: digits.count, by: 2).compactMap { Int(String(digits[$0...$0 + 1]), radix: 16) }
    }
}

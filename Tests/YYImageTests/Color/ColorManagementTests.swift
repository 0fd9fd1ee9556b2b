import CLCMS2
import Foundation
import TestSupport
import Testing

@testable import YYImage

/// What the colour tests compare against.
enum ColourReference {
    static let tificc = ChildProcess.systemExecutable("tificc")
    static let ghostscriptProfiles = "/usr/share/color/icc/ghostscript"
    static var isAvailable: Bool {
        PillowReference.isAvailable && tificc != nil && FileManager.default.fileExists(atPath: ghostscriptProfiles + "/a98.icc")
    }
}

/// Embedded profiles converted to sRGB, against Little CMS's own `tificc` and Pillow's `ImageCms`.
@Suite(.enabled(if: ColourReference.isAvailable, "needs Pillow, tificc and Ghostscript's profiles: run scripts/setup --reference"))
struct ColorManagementTests {
    static let tificc = ColourReference.tificc
    static let ghostscriptProfiles = ColourReference.ghostscriptProfiles
    let folder = TemporaryDirectory("colour")

    /// A Display P3 profile (P3 primaries, D65, the sRGB curve), made with Little CMS.
    static func displayP3() -> [UInt8] {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1),
            Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
            Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        let curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)
        cmsFreeToneCurve(curve)
        return saved(profile)
    }

    /// A grey profile (D50, gamma 2.2), made with Little CMS.
    static func grayProfile() -> [UInt8] {
        let curve = cmsBuildGamma(nil, 2.2)
        defer { cmsFreeToneCurve(curve) }
        return saved(cmsCreateGrayProfile(cmsD50_xyY(), curve))
    }

    /// The ICC bytes of `profile`, which is closed.
    private static func saved(_ profile: cmsHPROFILE?) -> [UInt8] {
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        cmsSaveProfileToMem(profile, &bytes, &size)
        return bytes
    }

    /// Saturated and dark colours, where profiles differ most.
    static let pattern: Bitmap = {
        var bitmap = Bitmap(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 { bitmap[x, y] = RGBA(UInt8(x * 4), UInt8(y * 5), UInt8(255 - x * 2 - y), 255) }
        }
        return bitmap
    }()

    func raw(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test(arguments: ["displayP3", "adobeRGB"])
    func anRGBProfileConvertsToSRGBWithinOneLevelOfTificc(_ name: String) throws {
        let profile = name == "displayP3" ? Self.displayP3() : try raw(Self.ghostscriptProfiles + "/a98.icc")
        var encoder = ImageEncoder(type: .png)
        encoder.colorProfile = Data(profile)
        encoder.addFrame(Self.pattern)
        let png = folder.appending("\(name).png"), tiff = folder.appending("\(name).tif")
        let converted = folder.appending("\(name)-srgb.tif"), reference = folder.appending("\(name).raw")
        try encoder.encode().write(to: URL(fileURLWithPath: png))
        try PillowReference.colour(["tiff", png, tiff])
        let result = try ChildProcess.run(Self.tificc!, [tiff, converted])
        #expect(result.status == 0, "\(result.standardError)")
        try PillowReference.colour(["rgb", converted, reference])
        var options = ImageDecoder.Options()
        options.convertsToSRGB = true
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: png)), options: options)
        #expect(decoder.colorProfile == Data(profile))
        #expect(decoder.decodedColorProfile == nil)
        options.convertsToSRGB = false
        #expect(try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: png)), options: options).decodedColorProfile == Data(profile))
        let ours = try decoder.frame(at: 0)
        let expected = try raw(reference)
        var worst = 0, changed = 0
        for y in 0..<48 {
            for x in 0..<64 {
                let p = ours[x, y], i = (y * 64 + x) * 3
                worst = max(worst, abs(Int(p.r) - Int(expected[i])), abs(Int(p.g) - Int(expected[i + 1])), abs(Int(p.b) - Int(expected[i + 2])))
                if p != Self.pattern[x, y] { changed += 1 }
            }
        }
        #expect(worst <= 1, "\(name): \(worst) levels from tificc")
        #expect(changed > 1000, "\(name): the conversion changed only \(changed) pixels")
    }

    @Test func aCMYKJPEGRendersLikeImageCms() throws {
        let jpeg = folder.appending("cmyk.jpg"), reference = folder.appending("cmyk.raw")
        try PillowReference.colour(["cmyk-jpeg", Self.ghostscriptProfiles + "/default_cmyk.icc", jpeg])
        try PillowReference.colour(["cms", jpeg, reference])
        let decoder = try ImageDecoder(data: Data(contentsOf: URL(fileURLWithPath: jpeg)))
        let ours = try decoder.frame(at: 0)
        #expect(decoder.colorProfile != nil && decoder.decodedColorProfile == nil)  // the pixels are sRGB now
        let expected = try raw(reference)
        var worst = 0
        for y in 0..<48 {
            for x in 0..<64 {
                let p = ours[x, y], i = (y * 64 + x) * 3
                worst = max(worst, abs(Int(p.r) - Int(expected[i])), abs(Int(p.g) - Int(expected[i + 1])), abs(Int(p.b) - Int(expected[i + 2])))
                #expect(p.a == 255)
            }
        }
        // Both run Little CMS with the same profile and intent, but of different releases (Pillow's
        // wheels carry Little CMS 2.19 and libjpeg-turbo 3, Debian 12 has 2.14 and 2.1.5), whose
        // CMYK lookups and inverse DCTs differ by up to 3 levels on this pattern.
        #expect(worst <= 3, "\(worst) levels from ImageCms")
    }
}

@Suite struct NaiveCMYKTests {
    @Test func aCMYKJPEGWithoutAProfileUsesTheNaiveFormula() {
        let inks: [UInt8] = [0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 255, 128, 64, 0, 51]
        let rendered = ColorTransform.cmykToSRGB(inks, width: 4, height: 1, profile: nil)
        #expect(rendered[0, 0] == RGBA(255, 255, 255))
        #expect(rendered[1, 0] == RGBA(0, 255, 255))
        #expect(rendered[2, 0] == RGBA(0, 0, 0))
        // (255 − 128)(255 − 51)/255 = 101.6 → 101; (255 − 64)·204/255 = 152.8 → 152; 255·204/255 = 204.
        #expect(rendered[3, 0] == RGBA(101, 152, 204, 255))
    }
}

import Foundation
import Testing

@testable import YYImage

@Suite struct MetadataTests {
    // Made anew for each use: a `Data` in a static `let` shows as a leak under LeakSanitizer.
    static var xmp: Data { Data(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>"#.utf8) }
    static var profile: Data { Data((0..<300).map { UInt8($0 & 0xFF) }) }

    @Test(arguments: [ImageType.jpeg, .png, .webp])
    func exifXMPAndTheColourProfileRoundTrip(_ type: ImageType) throws {
        let exif = Data(DecoderOptionsTests.exif(orientation: 6))
        var encoder = ImageEncoder(type: type)
        encoder.exif = exif
        encoder.xmp = Self.xmp
        encoder.colorProfile = Self.profile
        encoder.addFrame(DecoderOptionsTests.quadrants)
        let decoder = try ImageDecoder(data: encoder.encode())
        #expect(decoder.exif == exif)
        #expect(decoder.xmp == Self.xmp)
        #expect(decoder.colorProfile == Self.profile)
        #expect(decoder.orientation == .right)
        // Turned upright while decoding, so the EXIF to write again says upright.
        let upright = try #require(decoder.exifForUprightPixels)
        #expect(EXIF.orientation(inTIFF: [UInt8](upright)) == .up)
        var raw = ImageDecoder.Options()
        raw.appliesOrientation = false
        #expect(try ImageDecoder(data: encoder.encode(), options: raw).exifForUprightPixels == exif)
    }

    @Test(arguments: [ImageType.avif, .jpegXL])
    func anRGBProfileTravelsInAVIFAndJPEGXL(_ type: ImageType) throws {
        guard type.isEncodable else { return }
        let profile = Data(ColorManagementTests.displayP3())
        var encoder = ImageEncoder(type: type)
        encoder.colorProfile = profile
        encoder.lossless = true
        encoder.addFrame(ColorManagementTests.pattern)
        // Lossless files keep the profile's own values.
        let decoder = try ImageDecoder(data: encoder.encode())
        #expect(decoder.colorProfile == profile)
        #expect(maxChannelDifference(try decoder.frame(at: 0), ColorManagementTests.pattern) == 0)
        // A profile that is not RGB says nothing about RGB samples: the file is sRGB.
        encoder.colorProfile = Data(ColorManagementTests.grayProfile())
        #expect(try ImageDecoder(data: encoder.encode()).colorProfile == nil)
    }

    @Test func aLossyJPEGXLWithAProfileDecodesToSRGB() throws {
        guard ImageType.jpegXL.isEncodable else { return }
        let profile = Data(ColorManagementTests.displayP3())
        var encoder = ImageEncoder(type: .jpegXL)
        encoder.colorProfile = profile
        encoder.quality = 0.95
        encoder.addFrame(ColorManagementTests.pattern)
        let decoder = try ImageDecoder(data: encoder.encode())
        // libjxl turns its XYB samples into sRGB (not the linear sRGB it picks by itself).
        #expect(decoder.decodedColorProfile == nil)
        var managed = ImageDecoder.Options()
        managed.convertsToSRGB = true
        var png = ImageEncoder(type: .png)
        png.colorProfile = profile
        png.addFrame(ColorManagementTests.pattern)
        let expected = try ImageDecoder(data: png.encode(), options: managed).frame(at: 0)
        let difference = FormatReference.meanDifference(try decoder.frame(at: 0), expected)
        #expect(difference < 2, "mean difference \(difference) from Little CMS's conversion")
    }

    @Test func aJPEGProfileLongerThanOneSegmentIsSplitAndReassembled() throws {
        let long = Data((0..<150_000).map { UInt8(($0 * 7) & 0xFF) })
        var encoder = ImageEncoder(type: .jpeg)
        encoder.colorProfile = long
        encoder.addFrame(DecoderOptionsTests.quadrants)
        #expect(try ImageDecoder(data: encoder.encode()).colorProfile == long)
    }
}

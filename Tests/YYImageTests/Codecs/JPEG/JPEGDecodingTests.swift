import CTurboJPEG
import Foundation
import Testing

@testable import YYImage

/// libjpeg-turbo's decode as TurboJPEG reports it: damaged files that still decode, and fatal
/// errors that must not come back as pictures.
struct JPEGDecodingTests {
    /// A 256 × 256 baseline JPEG of ours (256 KB of pixels: fresh pages when decoded).
    static func file() throws -> [UInt8] {
        var encoder = ImageEncoder(type: .jpeg)
        encoder.addFrame(TestImages.photo(256, 256))
        return [UInt8](try encoder.encode())
    }

    /// The same picture as a progressive JPEG (libjpeg-turbo's encoder: our writer makes
    /// baseline files), whose decoder reads every scan before it writes a row; `cmyk` makes it
    /// an Adobe YCCK file of the picture's bytes read as inks.
    static func progressiveFile(cmyk: Bool = false) throws -> [UInt8] {
        let picture = TestImages.photo(256, 256)
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let format = cmyk ? TJPF_CMYK : TJPF_RGBA
        let status = picture.pixels.withUnsafeBufferPointer {
            tjCompress2(
                handle, $0.baseAddress, 256, 1024, 256, Int32(format.rawValue), &output, &size, Int32(TJSAMP_420.rawValue), 90,
                Int32(TJFLAG_PROGRESSIVE))
        }
        defer { tjFree(output) }
        try #require(status == 0)
        return Array(UnsafeBufferPointer(start: try #require(output), count: Int(size)))
    }

    /// The offsets of every `0xFF marker` pair in `bytes`.
    static func offsets(of marker: UInt8, in bytes: [UInt8]) -> [Int] {
        bytes.indices.dropLast().filter { bytes[$0] == 0xFF && bytes[$0 + 1] == marker }
    }

    /// Stray bytes between two scans (a warning), then a last scan that names a Huffman table
    /// never defined (a fatal error): TurboJPEG reports the error as a warning because one came
    /// first, and no row was written. RGB and CMYK files take different decodes.
    @Test(arguments: [false, true])
    func aFatalErrorAfterAWarningIsAnErrorNotUnwrittenRows(cmyk: Bool) throws {
        var bytes = try Self.progressiveFile(cmyk: cmyk)
        if cmyk { #expect(try ImageDecoder(data: Data(bytes)).frame(at: 0).width == 256) }
        let scans = Self.offsets(of: 0xDA, in: bytes)
        try #require(scans.count > 2)
        // FF DA, length (2), component count (1), then the component's id and table selectors.
        bytes[scans.last! + 6] = 0x33
        bytes.insert(contentsOf: [0x12, 0x34], at: scans[2])
        #expect(throws: ImageError.self) { _ = try ImageDecoder(data: Data(bytes)).frame(at: 0) }
    }

    /// A warning alone (stray bytes between scans) leaves the whole picture decoded.
    @Test func strayBytesBetweenScansStillDecodeThePicture() throws {
        let file = try Self.progressiveFile()
        var bytes = file
        bytes.insert(contentsOf: [0x12, 0x34], at: Self.offsets(of: 0xDA, in: bytes)[2])
        let damaged = try ImageDecoder(data: Data(bytes)).frame(at: 0)
        #expect(damaged == (try ImageDecoder(data: Data(file)).frame(at: 0)))
    }

    /// JPEG has no alpha: its frames are known to be opaque, so nothing reads them to find out,
    /// and a file cut short decodes its missing rows as opaque grey.
    @Test func framesAreKnownOpaqueWholeOrCutShort() throws {
        let file = try Self.file()
        let whole = try ImageDecoder(data: Data(file)).frame(at: 0)
        #expect(whole.isKnownOpaque && whole.isOpaque)
        let decoder = ImageDecoder()
        try decoder.update(data: Data(file.prefix(file.count / 2)), final: false)
        let cut = try decoder.frame(at: 0)
        #expect(cut.isKnownOpaque && cut.isOpaque)
    }
}

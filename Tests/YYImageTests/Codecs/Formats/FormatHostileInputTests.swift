import Foundation
import TestSupport
import Testing

@testable import YYImage

/// Hostile files for the formats on C libraries and for ICNS: each gives a typed error, checked
/// before any large allocation where the file claims a large size.
struct FormatHostileInputTests {
    static let types: [ImageType] = [.jpeg2000, .tiff, .icns, .avif, .jpegXL].filter(\.isEncodable)

    /// A valid file of `type`, made by our encoder.
    static func valid(_ type: ImageType, width: Int = 64, height: Int = 48) throws -> [UInt8] {
        var encoder = ImageEncoder(type: type)
        encoder.effort = 0
        encoder.addFrame(FormatReference.picture(width: width, height: height))
        return [UInt8](try encoder.encode())
    }

    /// Decodes `bytes` all the way; returns the error, or `nil` when it decoded.
    static func decodeError(_ bytes: [UInt8], options: ImageDecoder.Options = ImageDecoder.Options()) -> ImageError? {
        do {
            let decoder = try ImageDecoder(data: Data(bytes), options: options)
            for index in 0..<decoder.frameCount { _ = try decoder.frame(at: index) }
            for index in 0..<decoder.pageCount { _ = try decoder.page(at: index) }
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: types)
    func truncatedFilesAreTypedErrors(type: ImageType) throws {
        let file = try Self.valid(type)
        for length in [0, 1, 8, 16, 40, file.count / 3, file.count / 2, file.count - 7] where length < file.count {
            // The type may not even be known from so few bytes: any typed error will do, and
            // a decoder that recovers what it can (JPEG 2000 keeps decoded layers) may succeed.
            let error = Self.decodeError(Array(file.prefix(length)))
            if length < 16 { #expect(error != nil, "\(type) cut to \(length) bytes") }
        }
    }

    @Test(arguments: types.filter { $0 != .icns })
    func imagesOverThePixelLimitAreRefusedFromTheHeader(type: ImageType) throws {
        var options = ImageDecoder.Options()
        options.maxPixelCount = 1000
        let error = Self.decodeError(try Self.valid(type), options: options)
        switch error {
        case .tooManyPixels(let width, let height, let limit)?:
            #expect(width == 64 && height == 48 && limit == 1000)
        default:
            Issue.record("\(type): \(String(describing: error))")
        }
    }

    @Test(.enabled(if: ImageType.tiff.isDecodable))
    func tiffClaimingTenBillionPixelsIsRefusedBeforeAllocating() {
        let file = HandmadeTIFF.file(entries: [
            (256, 4, 1, 100_000), (257, 4, 1, 100_000), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
            (273, 4, 1, 8), (278, 4, 1, 1), (279, 4, 1, 100_000),
        ])
        #expect(Self.decodeError(file) == .tooManyPixels(width: 100_000, height: 100_000, limit: ImageDecoder.Options().maxPixelCount))
    }

    @Test(.enabled(if: ImageType.tiff.isDecodable))
    func tiffDirectoryLoopsAndZeroSizedTilesAreTypedErrors() {
        let entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)] = [
            (256, 3, 1, 4), (257, 3, 1, 4), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
            (273, 4, 1, 8), (278, 3, 1, 4), (279, 4, 1, 16),
        ]
        // The first directory names itself as the next: libtiff finds the loop.
        let loop = HandmadeTIFF.file(entries: entries, data: [UInt8](repeating: 128, count: 16), nextIFD: 8)
        let decoder = try? ImageDecoder(data: Data(loop))
        if let decoder { #expect(decoder.pageCount >= 1 && decoder.pageCount <= 2) }
        // Tiles of 0 × 0 pixels.
        let tiles = HandmadeTIFF.file(
            entries: [
                (256, 3, 1, 4), (257, 3, 1, 4), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                (322, 3, 1, 0), (323, 3, 1, 0), (324, 4, 1, 8), (325, 4, 1, 16),
            ], data: [UInt8](repeating: 0, count: 16))
        #expect(Self.decodeError(tiles) != nil)
    }

    @Test(.enabled(if: ImageType.jpeg2000.isDecodable))
    func jpeg2000ClaimingTenBillionPixelsIsRefusedBeforeAllocating() throws {
        var file = try Self.valid(.jpeg2000)
        // SIZ: FF51, Lsiz, Rsiz, then Xsiz and Ysiz (and the tile size after the offsets).
        let siz = try #require((0..<(file.count - 1)).first { file[$0] == 0xFF && file[$0 + 1] == 0x51 })
        func put(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { file[offset + index] = UInt8(value >> (24 - 8 * UInt32(index)) & 0xFF) }
        }
        put(100_000, at: siz + 6)
        put(100_000, at: siz + 10)
        put(100_000, at: siz + 22)
        put(100_000, at: siz + 26)
        // Refused from the SIZ segment, before OpenJPEG sizes anything from it.
        #expect(Self.decodeError(file) == .tooManyPixels(width: 100_000, height: 100_000, limit: ImageDecoder.Options().maxPixelCount))
    }

    @Test(.enabled(if: ImageType.heic.isDecodable))
    func heicThatDoesNotParseGivesLibheifsReason() {
        // An ftyp box and a meta box with nothing valid in it: libheif's message, read before
        // its context is freed (the fuzzer found the message read after).
        let meta: [UInt8] =
            [0, 0, 0, 0x20] + Array("meta".utf8) + [0, 0, 0, 0] + [0, 0, 0, 0x14] + Array("hdlr".utf8) + [UInt8](repeating: 0, count: 12)
        let file = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + meta
        guard case .malformed(.heic, let text)? = Self.decodeError(file) else {
            Issue.record("\(String(describing: Self.decodeError(file)))")
            return
        }
        #expect(text.hasPrefix("the file does not parse: ") && text.count > 26, "\(text)")
    }

    @Test(.enabled(if: ImageType.jpeg2000.isDecodable))
    func jp2BoxesThatRunPastTheFileAreTypedErrors() {
        let signature: [UInt8] = [0, 0, 0, 0x0C] + Array("jP  ".utf8) + [0x0D, 0x0A, 0x87, 0x0A]
        let ftyp: [UInt8] = [0, 0, 0, 0x14] + Array("ftypjp2 ".utf8) + [0, 0, 0, 0] + Array("jp2 ".utf8)
        // A box of length 0 that is not the codestream (the fuzzer's input that made OpenJPEG
        // abort on an assertion), and a header box longer than the file.
        let zero = signature + ftyp + [0, 0, 0, 0] + Array("jp2 ".utf8) + [0, 0, 0, 0x2D] + Array("jp2h".utf8) + [UInt8](repeating: 7, count: 40)
        #expect(Self.decodeError(zero) == .malformed(.jpeg2000, "box 'jp2 ' at byte 32 runs to the end of the file"))
        let long = signature + ftyp + [0, 0, 0x10, 0] + Array("jp2h".utf8) + [UInt8](repeating: 7, count: 40)
        #expect(Self.decodeError(long) == .malformed(.jpeg2000, "box 'jp2h' at byte 32 runs \(4096 - 48) bytes past the end of the file"))
        // A codestream whose SIZ segment claims more bytes than follow (OpenJPEG then read past
        // its own buffer).
        let codestream: [UInt8] = [0xFF, 0x4F, 0xFF, 0x51, 0, 0x2F] + [UInt8](repeating: 0, count: 30)
        #expect(Self.decodeError(codestream) == .truncated(.jpeg2000))
    }

    @Test(.enabled(if: ImageType.jpeg2000.isDecodable))
    func aMainHeaderMarkerOpenJPEGDoesNotKnowIsRefusedBeforeItScansForTheNext() throws {
        // The fuzzer's input: an OpenJPEG codestream whose COM marker became 0xFF2B, past which
        // OpenJPEG scans for a marker it knows and reads beyond its own stream buffer.
        var file = try Self.valid(.jpeg2000)
        let start = try #require((0..<(file.count - 1)).first { file[$0] == 0xFF && file[$0 + 1] == 0x4F })
        let com = try #require((start..<(file.count - 1)).first { file[$0] == 0xFF && file[$0 + 1] == 0x64 })
        file[com + 1] = 0x2B
        #expect(Self.decodeError(file) == .malformed(.jpeg2000, "marker 0xFF2B at byte \(com) is not one of a main header's"))
    }

    @Test(.enabled(if: AVIFReference.isAvailable))
    func avifGridOverThePixelLimitIsRefused() throws {
        let folder = TemporaryDirectory("avif-grid")
        let png = folder.appending("source.png")
        try FormatReference.writePNG(FormatReference.picture(width: 128, height: 128), to: png)
        let path = folder.appending("grid.avif")
        try FormatReference.run("avifenc", ["--grid", "2x2", "-s", "9", png, path])
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Self.decodeError(file) == nil)
        var options = ImageDecoder.Options()
        options.maxPixelCount = 128 * 128 - 1
        #expect(Self.decodeError(file, options: options) != nil)
    }
}

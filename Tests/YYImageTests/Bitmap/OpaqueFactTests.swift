import Foundation
import Testing

@testable import YYImage

/// A bitmap's knowledge that it is opaque: set by decoders of pictures without alpha, passed on by
/// operations that keep alpha at 255, forgotten by any write to the pixels.
struct OpaqueFactTests {
    /// `bitmap` as a PNG file decoded again.
    static func throughPNG(_ bitmap: Bitmap) throws -> Bitmap {
        var encoder = ImageEncoder(type: .png)
        encoder.addFrame(bitmap)
        return try ImageDecoder(data: try encoder.encode()).frame(at: 0)
    }

    @Test func pngWithoutAlphaIsKnownOpaqueAndWithAlphaIsNot() throws {
        let opaque = try Self.throughPNG(TestImages.photo(40, 30))
        #expect(opaque.isKnownOpaque)
        let translucent = try Self.throughPNG(TestImages.photo(40, 30, alpha: true))
        #expect(!translucent.isKnownOpaque && !translucent.isOpaque)
    }

    /// Rows that have not arrived are transparent, so a partial decode is not opaque.
    @Test func aPartialPNGIsNotKnownOpaque() throws {
        var encoder = ImageEncoder(type: .png)
        encoder.addFrame(TestImages.photo(64, 64))
        let file = try encoder.encode()
        let decoder = ImageDecoder()
        try decoder.update(data: file.prefix(file.count / 2), final: false)
        let partial = try decoder.frame(at: 0)
        #expect(!partial.isKnownOpaque && !partial.isOpaque)
    }

    @Test func aWriteToThePixelsForgetsIt() throws {
        var bitmap = try Self.throughPNG(TestImages.photo(8, 8))
        #expect(bitmap.isKnownOpaque)
        bitmap[3, 4] = RGBA(1, 2, 3, 4)
        #expect(!bitmap.isKnownOpaque && !bitmap.isOpaque)
        var copy = try Self.throughPNG(TestImages.photo(8, 8))
        copy.pixels.withUnsafeMutableBufferPointer { $0[3] = 0 }
        #expect(!copy.isKnownOpaque && !copy.isOpaque)
    }

    /// Resizing, cropping inside the bitmap, turning and changing the alpha mode keep it, with the
    /// same pixels as the same operations on a bitmap that has to be read to learn it.
    @Test func operationsThatKeepAlphaAt255PassItOnWithTheSamePixels() throws {
        let known = try Self.throughPNG(TestImages.photo(96, 64, seed: 3))
        let unknown = try #require(Bitmap(width: known.width, height: known.height, pixels: known.pixels))
        #expect(known.isKnownOpaque && !unknown.isKnownOpaque && unknown.isOpaque)
        let operations: [(String, (Bitmap) throws -> Bitmap)] = [
            ("lanczos", { try ProcessingChain().resized(Resize(width: 31, height: 20, fit: .fill)).apply(to: $0) }),
            ("lanczos with pre-shrink", { try ProcessingChain().resized(Resize(width: 12, height: 8, fit: .fill)).apply(to: $0) }),
            ("enlarge", { try ProcessingChain().resized(Resize(width: 200, height: 150, fit: .fill, enlarge: true)).apply(to: $0) }),
            ("area", { $0.downsampled(toFit: 25) }),
            ("crop", { $0.cropped(to: PixelRect(x: 5, y: 6, width: 40, height: 30)) }),
            ("orient", { $0.oriented(.right) }),
            ("premultiply", { $0.premultiplied() }),
            ("premultiply and back", { $0.premultiplied().straightened() }),
            ("premultiplied resize", { try ProcessingChain().resized(Resize(width: 31, height: 20, fit: .fill)).apply(to: $0.premultiplied()) }),
        ]
        for (name, operation) in operations {
            let fromKnown = try operation(known), fromUnknown = try operation(unknown)
            #expect(fromKnown == fromUnknown, "\(name)")
            #expect(fromKnown.isKnownOpaque, "\(name)")
        }
    }

    @Test func aCropReachingPastTheEdgesIsNotKnownOpaque() throws {
        let known = try Self.throughPNG(TestImages.photo(20, 20))
        let crop = known.cropped(to: PixelRect(x: 10, y: 10, width: 20, height: 20))
        #expect(!crop.isKnownOpaque && !crop.isOpaque)
    }

    /// What is known is not part of equality: the same pixels are equal either way.
    @Test func equalityComparesPixelsNotWhatIsKnown() throws {
        let known = try Self.throughPNG(TestImages.photo(8, 8))
        let unknown = try #require(Bitmap(width: 8, height: 8, pixels: known.pixels))
        #expect(known == unknown)
    }
}

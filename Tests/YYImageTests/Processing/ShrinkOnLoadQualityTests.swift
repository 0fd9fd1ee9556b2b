import Foundation
import TestSupport
import TestTraits
import Testing

@testable import YYImage

/// Shrink-on-load against the whole decode, on real photos (`../shared/testdata/photos`) written
/// as JPEG (4:2:0 and 4:4:4, baseline and progressive) and WebP by Pillow: for widths and heights
/// from 95 % down to 5 % of the side (every 10 %), the result has sharp's size from the original, and lies no
/// further from the whole decode resized with Lanczos 3 than min(38 dB, Pillow's thumbnail recipe
/// − 0.5 dB).
// Serialized: each file is seconds of CPU-bound work, and the rest of the suite (real-time
// players, servers with deadlines) needs the other core meanwhile.
@Suite(.serialized, .needsSharedTestData, .enabled(if: PillowReference.isAvailable, "\(PillowReference.missingReason)"))
struct ShrinkOnLoadQualityTests {
    /// The files Pillow writes, each from one photo.
    static let files = [
        ("fruits.png", "j420.jpg"), ("fruits.png", "j444.jpg"), ("fruits.png", "j420p.jpg"), ("fruits.png", "j444p.jpg"),
        ("quebec.png", "j420.jpg"), ("quebec.png", "photo.webp"),
    ]

    /// sharp's other side: `other × given / side`, rounded half up, at least 1.
    static func sharpSide(_ other: Int, given: Int, side: Int) -> Int {
        max(1, (2 * other * given + side) / (2 * side))
    }

    @Test(arguments: files)
    func shrinkOnLoadKeepsSharpsSizeAndTheWholeDecodesPicture(photo: String, name: String) async throws {
        let folder = TemporaryDirectory("shrink-quality")
        let path = folder.path + "/" + name
        // Pillow's encoder and its draft recipe are child processes, and the whole decode is a
        // second of CPU: all off the cooperative pool, which the suites beside this one need.
        let (data, whole, sizes, pillow) = try await offThePool { () throws -> (Data, Bitmap, [Size], [UInt8]) in
            try PillowReference.shrink(["encode", TestData.url("photos/" + photo).path, folder.path])
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let whole = try ImageDecoder(data: data).frame(at: 0)
            let sizes = Self.sizes(width: whole.width, height: whole.height)
            let draftOut = folder.path + "/draft.rgb"
            try PillowReference.shrink(["draft", path, draftOut] + sizes.flatMap { [String($0.width), String($0.height)] })
            return (data, whole, sizes, [UInt8](try Data(contentsOf: URL(fileURLWithPath: draftOut))))
        }
        let (w, h) = (whole.width, whole.height)
        var offset = 0
        var worst = (margin: Double.infinity, report: "")
        for size in sizes {
            let resultOffset = offset
            offset += size.width * size.height * 3
            let result = try await offThePool { () throws -> (label: String, width: Int, height: Int, ours: Double, pillow: Double) in
                let chain = ProcessingChain([.resize(size.resize)])
                var options = ImageDecoder.Options()
                options.shrinkOnLoad = chain.shrinkOnLoad(sourceWidth: w, sourceHeight: h)
                let decoded = try ImageDecoder(data: data, options: options).frame(at: 0)
                let ours = try chain.apply(to: decoded, decodedFrom: (w, h))
                let label = "\(photo) \(name) \(w)x\(h) → \(size.width)x\(size.height) (decoded at \(decoded.width)x\(decoded.height))"
                guard (ours.width, ours.height) == (size.width, size.height) else { return (label, ours.width, ours.height, 0, 0) }
                var exact = size.resize
                exact.options.reducingGap = nil
                let reference = try ProcessingChain([.resize(exact)]).apply(to: whole)
                let pillowBytes = Array(pillow[resultOffset..<(resultOffset + size.width * size.height * 3)])
                return (label, ours.width, ours.height, psnr(ours, reference), PeerResizeTests.psnr(reference, pillowBytes))
            }
            try #require((result.width, result.height) == (size.width, size.height), "\(result.label): got \(result.width)x\(result.height)")
            let floor = min(38, result.pillow - 0.5)
            #expect(result.ours >= floor, "\(result.label): \(result.ours) dB, Pillow's recipe \(result.pillow) dB")
            if result.ours - floor < worst.margin {
                worst = (result.ours - floor, "\(result.label): \(result.ours) dB, Pillow's recipe \(result.pillow) dB")
            }
        }
        print("closest to the floor: \(worst.report)")
    }

    /// A size asked for, and the size sharp gives for it.
    typealias Size = (width: Int, height: Int, resize: Resize)

    /// Widths, then heights, from 95 % to 5 % of each side in steps of 10 %, with the other side
    /// as sharp computes it.
    /// Each resize on the calling thread alone (see `offThePool`).
    static func sizes(width w: Int, height h: Int) -> [Size] {
        stride(from: 95, through: 5, by: -10).flatMap { percent -> [Size] in
            let width = w * percent / 100, height = h * percent / 100
            var byWidth = Resize(width: width), byHeight = Resize(height: height)
            byWidth.options.usesAllCores = false
            byHeight.options.usesAllCores = false
            return [(width, sharpSide(h, given: width, side: w), byWidth), (sharpSide(w, given: height, side: h), height, byHeight)]
        }
    }
}

import Foundation
import Testing

@testable import YYImage

/// ICNS elements written byte by byte: what png2icns never writes.
struct ICNSElementTests {
    /// An icon file of `elements` (type and payload).
    static func file(_ elements: [(String, [UInt8])]) -> [UInt8] {
        func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
        let body = elements.flatMap { Array($0.0.utf8) + bigEndian($0.1.count + 8) + $0.1 }
        return Array("icns".utf8) + bigEndian(body.count + 8) + body
    }

    @Test func runLengthARGBElementsDecode() throws {
        // 16 × 16: alpha one run of 256 × 0x80 (runs of at most 130), then R, G, B literal rows.
        var payload = Array("ARGB".utf8) + runsOf(0x80, 256)
        for channel in 0..<3 {
            for row in 0..<16 { payload += [15] + (0..<16).map { UInt8((row * 16 + $0 + channel * 7) & 0xFF) } }
        }
        let decoder = try ImageDecoder(data: Data(Self.file([("ic04", payload), ("ICN#", [UInt8](repeating: 0, count: 256))])))
        #expect(decoder.pageCount == 1)
        let frame = try decoder.frame(at: 0)
        #expect(frame.width == 16 && frame.height == 16)
        #expect(Array(frame.pixels[(17 * 4)..<(18 * 4)]) == [17, 24, 31, 0x80])
    }

    @Test func packBitsRunsAndLiteralsUnpack() {
        #expect(ICNSElement.unpack([2, 1, 2, 3, 0x80, 9], count: 6)?.bytes == [1, 2, 3, 9, 9, 9])
        #expect(ICNSElement.unpack([0x81, 5], count: 2)?.bytes == [5, 5])  // a run longer than needed stops at count
        #expect(ICNSElement.unpack([4, 1, 2], count: 5) == nil)  // literals past the end
        #expect(ICNSElement.unpack([], count: 1) == nil)
    }

    @Test func maskedRGBElementsTakeAlphaFromTheirMask() throws {
        let rgb = (0..<3).flatMap { channel in runsOf(UInt8(50 * (channel + 1)), 256) }
        let decoder = try ImageDecoder(data: Data(Self.file([("is32", rgb), ("s8mk", [UInt8](repeating: 200, count: 256))])))
        let frame = try decoder.frame(at: 0)
        #expect(Array(frame.pixels[0..<4]) == [50, 100, 150, 200])
    }

    /// `count` bytes of `value` as PackBits runs (3...130 bytes each).
    private func runsOf(_ value: UInt8, _ count: Int) -> [UInt8] {
        var out: [UInt8] = [], left = count
        while left > 0 { let n = min(130, max(3, left)); out += [UInt8(n + 125), value]; left -= n }
        return out
    }
}

import Foundation
package import YYImage

/// Draws frames with the kitty graphics protocol: each frame is sent as raw RGBA (base64, in
/// chunks of 4096 characters), placed on the cell area, and the previous frame's image deleted
/// after it, alternating two image ids so that nothing flickers. Replies are suppressed (`q=2`).
package struct KittyRenderer: TerminalImageRenderer {
    /// The two image ids frames alternate between.
    static let imageIDs: (UInt32, UInt32) = (0x5959_0001, 0x5959_0002)
    /// Base64 characters per escape sequence, as the protocol requires (at most 4096).
    static let chunkSize = 4096
    private var shownID: UInt32?

    /// A renderer.
    package init() {}

    package mutating func draw(_ frame: Bitmap, columns: Int, rows: Int) -> [UInt8] {
        let id = shownID == Self.imageIDs.0 ? Self.imageIDs.1 : Self.imageIDs.0
        let rgba = frame.alphaMode == .straight ? frame.packedPixels : frame.straightened().packedPixels
        let payload = Array(Data(rgba).base64EncodedString().utf8)
        var out = Escape.beginSynchronizedUpdate + Escape.restoreCursor
        var offset = 0
        repeat {
            let end = min(offset + Self.chunkSize, payload.count)
            let more = end < payload.count ? 1 : 0
            let control =
                offset == 0
                ? "a=T,f=32,s=\(frame.width),v=\(frame.height),i=\(id),c=\(columns),r=\(rows),C=1,q=2,m=\(more)"
                : "m=\(more)"
            out += Array("\u{1B}_G\(control);".utf8) + payload[offset..<end] + Array("\u{1B}\\".utf8)
            offset = end
        } while offset < payload.count
        if let shownID { out += Self.delete(shownID) }
        out += Escape.endSynchronizedUpdate
        shownID = id
        return out
    }

    package mutating func reset() {}

    package mutating func finish() -> [UInt8] {
        defer { shownID = nil }
        return shownID.map(Self.delete) ?? []
    }

    /// Deletes an image and frees its data.
    static func delete(_ id: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }
}

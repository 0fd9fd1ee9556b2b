internal import Foundation

/// An Apple icon file (`icns`): every colour element is a page, largest first; page 0 is the
/// image.
///
/// Elements hold a PNG or JPEG 2000 file (`ic07`…`ic14`, `icp4`…`icp6`, `ic04`/`ic05`, which
/// may instead hold run-length ARGB), or run-length RGB (`is32`, `il32`, `ih32`, `it32`) whose
/// alpha is a separate mask element. The 1- to 8-bit elements of classic Mac OS (`ICN#`,
/// `icl8`…), the table of contents and nested dark-mode icons are skipped.
struct ICNSContainer: ImageContainer {
    let type = ImageType.icns
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    var pageCount: Int { representations.count }
    private let representations: [Representation]
    private let bytes: [UInt8]
    private let limits: DecodeLimits

    /// One colour element.
    private struct Representation {
        var type: String
        var width: Int
        var height: Int
        var payload: Range<Int>
        var mask: Range<Int>?
    }

    /// Parses the element list once the data is final.
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard isFinal else { return nil }
        guard bytes.count >= 8, let total = bytes.u32BE(4) else { throw .truncated(.icns) }
        guard Int(total) <= bytes.count else { throw .truncated(.icns) }
        var elements: [(type: String, payload: Range<Int>)] = []
        var offset = 8
        while offset + 8 <= Int(total) {
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let length = Int(bytes.u32BE(offset + 4)!)
            guard length >= 8 else { throw .malformed(.icns, "element '\(type)' at byte \(offset) claims \(length) bytes") }
            guard offset + length <= Int(total) else {
                throw .malformed(.icns, "element '\(type)' at byte \(offset) runs \(offset + length - Int(total)) bytes past the end of the file")
            }
            elements.append((type, (offset + 8)..<(offset + length)))
            offset += length
        }
        var representations: [Representation] = []
        for element in elements {
            guard let kind = ICNSElement.kinds[element.type] else { continue }
            var representation = Representation(type: element.type, width: kind.side, height: kind.side, payload: element.payload)
            switch kind.payload {
            case .packedRGB(let maskType):
                representation.mask = elements.first { $0.type == maskType && $0.payload.count == kind.side * kind.side }?.payload
            case .file:
                // PNG says its own size; a size there that differs from the type's is believed.
                let data = bytes[element.payload]
                if data.starts(with: PNGChunk.signature), let w = bytes.u32BE(element.payload.lowerBound + 16),
                    let h = bytes.u32BE(element.payload.lowerBound + 20)
                {
                    guard w > 0, h > 0 else { continue }
                    representation.width = Int(w)
                    representation.height = Int(h)
                } else if ImageType(sniffing: data) == .jpeg2000 {
                    guard ImageType.jpeg2000.isDecodable else { continue }
                } else if !data.starts(with: Array("ARGB".utf8)) {
                    continue
                }
            }
            try limits.check(width: representation.width, height: representation.height)
            representations.append(representation)
        }
        guard !representations.isEmpty else { throw .malformed(.icns, "no colour icon element") }
        // Largest first; between equal sizes the file's order.
        representations = representations.enumerated()
            .sorted { ($0.element.width * $0.element.height, -$0.offset) > ($1.element.width * $1.element.height, -$1.offset) }
            .map(\.element)
        self.representations = representations
        canvasWidth = representations[0].width
        canvasHeight = representations[0].height
        frames = [ImageFrameInfo(width: canvasWidth, height: canvasHeight)]
        self.bytes = bytes
        self.limits = limits
    }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        try decodePage(at: 0)
    }

    func decodePage(at index: Int) throws(ImageError) -> Bitmap {
        guard representations.indices.contains(index) else { throw .frameOutOfRange(index: index, count: representations.count) }
        let representation = representations[index]
        let payload = bytes[representation.payload]
        let side = representation.width
        if representation.mask != nil || ICNSElement.kinds[representation.type]?.payload != .file {
            // it32 data starts with four zero bytes.
            let start = representation.type == "it32" ? payload.startIndex + 4 : payload.startIndex
            let alpha = representation.mask.map { Array(bytes[$0]) }
            return try Self.packed(payload[min(start, payload.endIndex)...], side: side, channels: 3, alpha: alpha, type: representation.type)
        }
        if payload.starts(with: Array("ARGB".utf8)) {
            return try Self.packed(payload.dropFirst(4), side: side, channels: 4, alpha: nil, type: representation.type)
        }
        var options = ImageDecoder.Options()
        options.maxPixelCount = limits.maxPixelCount
        let decoder = try ImageDecoder(data: Data(payload), options: options)
        guard let inner = decoder.type, inner == .png || inner == .jpeg2000 else {
            throw .malformed(.icns, "element '\(representation.type)' holds neither PNG nor JPEG 2000")
        }
        return try decoder.frame(at: 0)
    }

    /// A `side` × `side` bitmap from run-length channels (R, G, B, or A, R, G, B), with `alpha`
    /// from a mask element when given.
    private static func packed(_ data: ArraySlice<UInt8>, side: Int, channels: Int, alpha: [UInt8]?, type: String) throws(ImageError) -> Bitmap {
        let count = side * side
        var planes: [[UInt8]] = []
        var rest = data
        for _ in 0..<channels {
            guard let (plane, end) = ICNSElement.unpack(rest, count: count) else {
                throw .malformed(.icns, "element '\(type)' ends inside its run-length data")
            }
            planes.append(plane)
            rest = rest[end...]
        }
        let a: [UInt8]? = channels == 4 ? planes.removeFirst() : alpha
        let (r, g, b) = (planes[0], planes[1], planes[2])
        var bitmap = Bitmap(width: side, height: side)
        for index in 0..<count {
            bitmap.pixels[index * 4] = r[index]
            bitmap.pixels[index * 4 + 1] = g[index]
            bitmap.pixels[index * 4 + 2] = b[index]
            bitmap.pixels[index * 4 + 3] = a?[index] ?? 255
        }
        return bitmap
    }
}

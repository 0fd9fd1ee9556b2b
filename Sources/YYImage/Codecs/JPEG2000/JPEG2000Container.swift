#if OpenJPEG
internal import COpenJPEG
internal import Foundation

/// A JPEG 2000 file (JP2 or a bare codestream) read with OpenJPEG.
///
/// OpenJPEG applies the JP2 palette, component-mapping and channel-definition boxes; this type
/// turns what it gives into RGBA8: sYCC to RGB, any depth to 8 bits with rounding, gray and
/// alpha channels placed. A size hint decodes fewer resolution levels (each halves both sides),
/// JPEG 2000's own shrink-on-load.
struct JPEG2000Container: ImageContainer {
    let type = ImageType.jpeg2000
    let canvasWidth: Int
    let canvasHeight: Int
    let loopCount = 0
    let frames: [ImageFrameInfo]
    let colorProfile: [UInt8]?
    let bitDepth: Int
    private let bytes: [UInt8]
    /// Resolution levels in the codestream: the most halvings a decode may skip is one less.
    private let resolutionLevels: Int
    private let limits: DecodeLimits

    /// Parses the header once the data is final.
    init?(bytes: [UInt8], isFinal: Bool, limits: DecodeLimits) throws(ImageError) {
        guard isFinal else { return nil }
        guard bytes.count >= 16 else { throw .truncated(.jpeg2000) }
        // OpenJPEG sizes its structures from boxes and segments it trusts: check them first, once.
        try Self.checkMainHeader(bytes, at: OpenJPEG.Format(of: bytes) == .jp2 ? try Self.checkBoxes(bytes) : 0, limits: limits)
        let header = try Self.readHeader(bytes)
        defer { opj_image_destroy(header.image) }
        let image = header.image.pointee
        let width = Int(image.x1) - Int(image.x0), height = Int(image.y1) - Int(image.y0)
        guard width > 0, height > 0, image.numcomps > 0 else { throw .malformed(.jpeg2000, "an image of \(width)x\(height) pixels") }
        try limits.check(width: width, height: height)
        canvasWidth = width
        canvasHeight = height
        frames = [ImageFrameInfo(width: width, height: height)]
        colorProfile =
            image.icc_profile_len > 0 && image.icc_profile_buf != nil
            ? Array(UnsafeBufferPointer(start: image.icc_profile_buf, count: Int(image.icc_profile_len))) : nil
        resolutionLevels = header.resolutionLevels
        bitDepth = UnsafeBufferPointer(start: image.comps, count: Int(image.numcomps)).map { Int($0.prec) }.max() ?? 8
        self.bytes = bytes
        self.limits = limits
    }

    /// A codec positioned after the header, the header's image and its resolution levels, for
    /// bytes whose boxes and main header were checked.
    private static func readHeader(_ bytes: [UInt8]) throws(ImageError) -> (
        codec: OpenJPEG, image: UnsafeMutablePointer<opj_image_t>, resolutionLevels: Int
    ) {
        let codec = try OpenJPEG(OpenJPEG.Format(of: bytes), decoding: bytes)
        var parameters = opj_dparameters_t()
        opj_set_default_decoder_parameters(&parameters)
        guard opj_setup_decoder(codec.codec, &parameters) != 0 else { throw .codec(.jpeg2000, codec.error("decoder setup failed")) }
        opj_codec_set_threads(codec.codec, Int32(min(8, ProcessInfo.processInfo.activeProcessorCount)))
        var image: UnsafeMutablePointer<opj_image_t>?
        guard opj_read_header(codec.stream, codec.codec, &image) != 0, let image else {
            throw .malformed(.jpeg2000, codec.error("the header does not read"))
        }
        var levels = 1
        if let info = opj_get_cstr_info(codec.codec) {
            levels = max(1, Int(info.pointee.m_default_tile_info.tccp_info?.pointee.numresolutions ?? 1))
            var pointer: UnsafeMutablePointer<opj_codestream_info_v2_t>? = info
            opj_destroy_cstr_info(&pointer)
        }
        return (codec, image, levels)
    }

    /// Checks the JP2 file's top-level boxes before OpenJPEG reads them, and returns where the
    /// codestream starts: each box must fit in the file, and only the codestream (`jp2c`) may run
    /// to its end (length 0) or be cut short. OpenJPEG 2.5 aborts the process on an assertion for
    /// some boxes that claim more bytes than the file has (found by the fuzzer).
    static func checkBoxes(_ bytes: [UInt8]) throws(ImageError) -> Int {
        var offset = 0
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var length = Int(bytes.u32BE(offset)!), header = 8
            if length == 1 {
                guard offset + 16 <= bytes.count, let high = bytes.u32BE(offset + 8), let low = bytes.u32BE(offset + 12), high == 0 else {
                    throw .malformed(.jpeg2000, "box '\(type)' at byte \(offset) has a length no file here reaches")
                }
                length = Int(low)
                header = 16
            }
            if type == "jp2c" { return offset + header }  // the codestream: OpenJPEG reads what there is of it
            guard length != 0 else { throw .malformed(.jpeg2000, "box '\(type)' at byte \(offset) runs to the end of the file") }
            guard length >= header else { throw .malformed(.jpeg2000, "box '\(type)' at byte \(offset) claims \(length) bytes") }
            guard offset + length <= bytes.count else {
                throw .malformed(.jpeg2000, "box '\(type)' at byte \(offset) runs \(offset + length - bytes.count) bytes past the end of the file")
            }
            offset += length
        }
        throw .malformed(.jpeg2000, "no codestream box")
    }

    /// Checks the main header of the codestream at `start` (SOC up to the first tile's SOT)
    /// before OpenJPEG reads it: every marker segment must be one a main header may hold and fit
    /// in the file, and the image size in SIZ must be within `limits` (OpenJPEG sizes its tile
    /// structures from it while reading the header). OpenJPEG 2.5 reads past the end of its own
    /// stream buffer on segments that claim more bytes than are left, on huge claimed sizes, and
    /// while it scans past a marker it does not know (all found by the fuzzer under
    /// AddressSanitizer), so none of those reaches it.
    /// The marker segments a main header may hold (ISO/IEC 15444-1 and -2, as OpenJPEG reads
    /// them): CAP, SIZ, COD, COC, TLM, PLM, CPF, QCD, QCC, RGN, POC, PPM, CRG, COM, MCT, MCC, MCO, CBD.
    private static let mainHeaderMarkers: Set<UInt16> = [
        0xFF50, 0xFF51, 0xFF52, 0xFF53, 0xFF55, 0xFF57, 0xFF59, 0xFF5C, 0xFF5D, 0xFF5E, 0xFF5F, 0xFF60, 0xFF63, 0xFF64,
        0xFF74, 0xFF75, 0xFF77, 0xFF78,
    ]

    static func checkMainHeader(_ bytes: [UInt8], at start: Int, limits: DecodeLimits) throws(ImageError) {
        guard bytes.u16BE(start) == 0xFF4F else { throw .malformed(.jpeg2000, "the codestream does not start with SOC") }
        var offset = start + 2
        while let marker = bytes.u16BE(offset) {
            guard marker >= 0xFF00 else { throw .malformed(.jpeg2000, "no marker at byte \(offset) of the main header") }
            if marker == 0xFF90 || marker == 0xFFD9 { return }  // SOT (the first tile) or EOC
            guard Self.mainHeaderMarkers.contains(marker) else {
                throw .malformed(.jpeg2000, "marker 0x\(String(marker, radix: 16, uppercase: true)) at byte \(offset) is not one of a main header's")
            }
            guard let length = bytes.u16BE(offset + 2).map(Int.init), length >= 2 else { throw .truncated(.jpeg2000) }
            guard offset + 2 + length <= bytes.count else { throw .truncated(.jpeg2000) }
            // SIZ: Lsiz, Rsiz, Xsiz, Ysiz, XOsiz, YOsiz (the image is Xsiz - XOsiz wide).
            if marker == 0xFF51, length >= 18, let x = bytes.u32BE(offset + 6), let y = bytes.u32BE(offset + 10),
                let x0 = bytes.u32BE(offset + 14), let y0 = bytes.u32BE(offset + 18)
            {
                try limits.check(width: Int(x) - Int(x0), height: Int(y) - Int(y0))
            }
            offset += 2 + length
        }
        throw .truncated(.jpeg2000)
    }

    func decodeFrame(at index: Int, shrinkOnLoad: Int?) throws(ImageError) -> Bitmap {
        let header = try Self.readHeader(bytes)
        defer { opj_image_destroy(header.image) }
        let codec = header.codec
        // Each resolution level halves both sides (rounding up): a power-of-two shrink.
        let denominator = ShrinkOnLoad.denominator(
            width: canvasWidth, height: canvasHeight, keeping: shrinkOnLoad, maxDenominator: 1 << max(0, resolutionLevels - 1))
        if denominator > 1 {
            // A level the codestream refuses leaves the full resolution, which is still correct.
            _ = opj_set_decoded_resolution_factor(codec.codec, OPJ_UINT32(denominator.trailingZeroBitCount))
        }
        guard opj_decode(codec.codec, codec.stream, header.image) != 0 else {
            throw .malformed(.jpeg2000, codec.error("the codestream does not decode"))
        }
        return try Self.bitmap(from: header.image.pointee, limits: limits)
    }

    /// RGBA8 from OpenJPEG's decoded components.
    private static func bitmap(from image: opj_image_t, limits: DecodeLimits) throws(ImageError) -> Bitmap {
        let components = UnsafeBufferPointer(start: image.comps, count: Int(image.numcomps))
        guard let first = components.first, first.data != nil else { throw .malformed(.jpeg2000, "no decoded component") }
        let width = Int(first.w), height = Int(first.h)
        try limits.check(width: width, height: height)
        guard components.allSatisfy({ $0.data != nil && $0.w > 0 && $0.h > 0 && $0.prec >= 1 && $0.prec <= 31 }) else {
            throw .malformed(.jpeg2000, "a component without samples")
        }
        let alphaIndex =
            components.firstIndex { $0.alpha != 0 }
            ?? (components.count == 2 || components.count >= 4 ? (components.count == 2 ? 1 : 3) : nil)
        let colorIndices = Array(components.indices.filter { $0 != alphaIndex }.prefix(3))
        let isYCC =
            colorIndices.count == 3
            && (image.color_space == OPJ_CLRSPC_SYCC
                || (image.color_space != OPJ_CLRSPC_SRGB && components[colorIndices[1]].dx > 1 && components[colorIndices[0]].dx == 1))
        return try Bitmap(uninitializedWidth: width, height: height) { (pixels, _) throws(ImageError) in
            if isYCC {
                Self.fillFromYCC(pixels, components: colorIndices.map { components[$0] }, width: width, height: height)
            } else {
                for channel in 0..<3 {
                    Self.fill(
                        pixels, channel: channel, from: components[colorIndices[colorIndices.count == 3 ? channel : 0]], width: width, height: height)
                }
            }
            if let alphaIndex {
                Self.fill(pixels, channel: 3, from: components[alphaIndex], width: width, height: height)
            } else {
                for offset in stride(from: 3, to: pixels.count, by: 4) { pixels[offset] = 255 }
            }
        }
    }

    /// Writes `channel` (0...3) of every pixel from `component`, scaled to 8 bits through a table
    /// (at most 2^16 entries; deeper samples keep their top 16 bits first).
    private static func fill(_ pixels: UnsafeMutableBufferPointer<UInt8>, channel: Int, from component: opj_image_comp_t, width: Int, height: Int) {
        let w = Int(component.w), h = Int(component.h), precision = Int(component.prec)
        let shift = max(0, precision - 16), bits = precision - shift
        let offset = component.sgnd != 0 ? 1 << (precision - 1) : 0
        let maximum = (1 << bits) - 1
        let table = (0...maximum).map { UInt8(to8($0, UInt32(bits))) }
        let columns = (0..<width).map { w == width ? $0 : min(w - 1, $0 * w / width) }
        table.withUnsafeBufferPointer { table in
            columns.withUnsafeBufferPointer { columns in
                for y in 0..<height {
                    let row = component.data + (h == height ? y : min(h - 1, y * h / height)) * w
                    var out = y * width * 4 + channel
                    for x in 0..<width {
                        let value = (Int(row[columns[x]]) + offset) >> shift
                        pixels[out] = table[min(maximum, max(0, value))]
                        out += 4
                    }
                }
            }
        }
    }

    /// Writes R, G and B of every pixel from sYCC components (subsampled chroma repeated).
    private static func fillFromYCC(_ pixels: UnsafeMutableBufferPointer<UInt8>, components: [opj_image_comp_t], width: Int, height: Int) {
        let precision = components[0].prec
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(
                    y: sample(components[0], x, y, width, height), cb: sample(components[1], x, y, width, height),
                    cr: sample(components[2], x, y, width, height), precision: Int(precision))
                let out = (y * width + x) * 4
                pixels[out] = UInt8(to8(r, precision))
                pixels[out + 1] = UInt8(to8(g, precision))
                pixels[out + 2] = UInt8(to8(b, precision))
            }
        }
    }

    /// The sample of `component` under canvas pixel (`x`, `y`), unsigned (signed samples are
    /// offset by half their range); subsampled components repeat their samples.
    @inline(__always)
    private static func sample(_ component: opj_image_comp_t, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Int {
        let w = Int(component.w), h = Int(component.h)
        let cx = w == width ? x : min(w - 1, x * w / width)
        let cy = h == height ? y : min(h - 1, y * h / height)
        let value = Int(component.data[cy * w + cx])
        return component.sgnd != 0 ? value + (1 << (Int(component.prec) - 1)) : value
    }

    /// `value` of `precision` bits as 8 bits, rounded to nearest and clamped.
    @inline(__always)
    private static func to8(_ value: Int, _ precision: UInt32) -> Int {
        let maximum = (1 << Int(precision)) - 1
        let clamped = min(maximum, max(0, value))
        return precision == 8 ? clamped : (clamped * 255 + maximum / 2) / maximum
    }

    /// sYCC (ITU-R BT.601 full range, as OpenJPEG's own tools convert it) to RGB at the same
    /// precision.
    @inline(__always)
    private static func rgb(y: Int, cb: Int, cr: Int, precision: Int) -> (Int, Int, Int) {
        let offset = 1 << (precision - 1), maximum = (1 << precision) - 1
        let cb = Double(cb - offset), cr = Double(cr - offset), luma = Double(y)
        func clamp(_ v: Double) -> Int { min(maximum, max(0, Int(v.rounded()))) }
        return (clamp(luma + 1.402 * cr), clamp(luma - 0.344 * cb - 0.714 * cr), clamp(luma + 1.772 * cb))
    }
}
#endif

internal import CYYPixelKernels

/// A platform-neutral image: RGBA8 pixels, rows of `bytesPerRow` bytes, top row first.
///
/// Colour samples are either straight (independent of alpha) or premultiplied by alpha, as
/// `alphaMode` says. A value type: copies share storage until one of them is written.
///
/// A bitmap may also know that it is opaque without reading its pixels: decoders of formats
/// without alpha say so, and operations that keep alpha at 255 pass it on. Any write to the
/// pixels forgets it, so the fact never outlives the pixels it describes.
public struct Bitmap: Sendable, Equatable {
    /// How colour samples relate to alpha.
    public enum AlphaMode: Sendable, Equatable {
        /// Colour is independent of alpha (PNG, GIF, WebP files store it so).
        case straight
        /// Colour is multiplied by alpha / 255 (what compositors and CoreGraphics like).
        case premultiplied
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the next (at least `width * 4`).
    public let bytesPerRow: Int
    /// How the colour samples relate to alpha.
    public internal(set) var alphaMode: AlphaMode
    /// The pixels: `height` rows of `bytesPerRow` bytes, each pixel R, G, B, A.
    public internal(set) var pixels: [UInt8] {
        get { storage }
        // In place (no copy of the array), and whatever the write does, the opaque fact is gone.
        _modify {
            isKnownOpaque = false
            yield &storage
        }
    }

    private var storage: [UInt8]
    /// Whether every alpha byte is known to be 255 without reading them (see ``markOpaque()``).
    /// `false` says nothing: ``isOpaque`` then reads the pixels.
    private(set) var isKnownOpaque = false

    /// A transparent black bitmap.
    public init(width: Int, height: Int, alphaMode: AlphaMode = .straight) {
        precondition(width >= 0 && height >= 0, "negative bitmap size")
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.alphaMode = alphaMode
        self.storage = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// A bitmap whose pixels `initialize` writes, every byte of them (C decoders and kernels that
    /// fill the whole image). Skips zero-filling memory that is overwritten at once; when
    /// `initialize` throws the bitmap never exists, so unwritten bytes are never read.
    init<Failure: Error>(
        uninitializedWidth width: Int, height: Int, alphaMode: AlphaMode = .straight,
        initialize: (UnsafeMutableBufferPointer<UInt8>, _ bytesPerRow: Int) throws(Failure) -> Void
    ) throws(Failure) {
        precondition(width >= 0 && height >= 0, "negative bitmap size")
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.alphaMode = alphaMode
        var failure: Failure?
        self.storage = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            do throws(Failure) {
                try initialize(buffer, width * 4)
                count = buffer.count
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
    }

    /// A bitmap over existing pixels; `nil` when a side is negative, the stride is shorter than a
    /// row, or `pixels` is too short for the size and stride (a size whose byte count overflows
    /// `Int` included: it traps no more than any other size the pixels cannot hold).
    public init?(width: Int, height: Int, bytesPerRow: Int? = nil, alphaMode: AlphaMode = .straight, pixels: [UInt8]) {
        guard width >= 0, height >= 0, case (let rowBytes, false) = width.multipliedReportingOverflow(by: 4) else {
            return nil
        }
        let stride = bytesPerRow ?? rowBytes
        guard stride >= rowBytes else { return nil }
        if height > 0 {
            guard case (let rows, false) = stride.multipliedReportingOverflow(by: height - 1),
                case (let needed, false) = rows.addingReportingOverflow(rowBytes),
                pixels.count >= needed
            else { return nil }
        }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.alphaMode = alphaMode
        self.storage = pixels
    }

    /// The number of bytes the pixels take.
    public var byteCount: Int { pixels.count }

    /// The pixel at column `x`, row `y` (top-left origin).
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the bitmap")
            let i = y * bytesPerRow + x * 4
            return RGBA(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the bitmap")
            let i = y * bytesPerRow + x * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// Whether every pixel has alpha 255: known at once for bitmaps decoded from formats without
    /// alpha and what opaque operations made from them, read from the pixels otherwise.
    public var isOpaque: Bool {
        isKnownOpaque || scansOpaque
    }

    /// Records that every alpha byte is 255, for whoever asks ``isOpaque`` next. Only for code
    /// that wrote or checked every pixel (debug builds check the claim).
    mutating func markOpaque() {
        assert(scansOpaque, "a bitmap marked opaque has alpha below 255")
        isKnownOpaque = true
    }

    /// Whether every pixel has alpha 255, read from the pixels.
    private var scansOpaque: Bool {
        guard width > 0, height > 0 else { return true }
        return storage.withUnsafeBufferPointer { buffer in
            // The C loop takes 32-bit sizes; a bitmap past them (gigabytes a row) is scanned here.
            guard let columns = Int32(exactly: width), let rows = Int32(exactly: height) else {
                for y in 0..<height {
                    for x in 0..<width where buffer[y * bytesPerRow + x * 4 + 3] != 255 { return false }
                }
                return true
            }
            return yy_is_opaque(buffer.baseAddress, bytesPerRow, columns, rows) != 0
        }
    }

    /// Equal size, stride, alpha mode and bytes (what is known of them aside).
    public static func == (lhs: Bitmap, rhs: Bitmap) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.bytesPerRow == rhs.bytesPerRow
            && lhs.alphaMode == rhs.alphaMode && lhs.storage == rhs.storage
    }

    /// The pixels packed tightly (`width * 4` bytes a row), whatever the stride.
    public var packedPixels: [UInt8] {
        if bytesPerRow == width * 4 { return Array(pixels.prefix(width * height * 4)) }
        var out = [UInt8]()
        out.reserveCapacity(width * height * 4)
        for y in 0..<height {
            out.append(contentsOf: pixels[(y * bytesPerRow)..<(y * bytesPerRow + width * 4)])
        }
        return out
    }
}

/// One RGBA8 pixel.
public struct RGBA: Sendable, Hashable, Codable {
    /// Red.
    public var r: UInt8
    /// Green.
    public var g: UInt8
    /// Blue.
    public var b: UInt8
    /// Alpha (255 = opaque).
    public var a: UInt8

    /// A pixel from its four samples.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
}

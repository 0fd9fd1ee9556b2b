#if !_endian(little)
#error("FrameCompositor.blit reads RGBA pixels as little-endian 32-bit words")
#endif

/// Draws the frames of an animation onto its canvas, honouring each frame's disposal and blend,
/// with random access.
///
/// The canvas holds the last frame drawn (before that frame's disposal). Asking for the next
/// frame continues from it; any other frame replays from the nearest key frame at or before it:
/// a frame whose starting canvas is known without the frames before it (frame 0; a frame after
/// one that cleared the whole canvas; a full-canvas frame that replaces every pixel). Memory:
/// the canvas, plus a copy of one frame rectangle while a "previous" disposal is pending.
struct FrameCompositor {
    private let frames: [ImageFrameInfo]
    private let width: Int
    private let height: Int
    /// For each frame: whether the canvas before it is transparent whatever came earlier
    /// (`clearStart`), whether the frame itself overwrites the whole canvas (`covers`).
    private let starts: [(clearStart: Bool, covers: Bool)]
    private var canvas: Bitmap
    private var drawn: Int?
    /// The rectangle of `drawn` as it was before `drawn` was drawn, when `drawn` disposes to previous.
    private var saved: (rect: ClippedRect, pixels: [UInt8])?

    init(frames: [ImageFrameInfo], canvasWidth: Int, canvasHeight: Int, mayHaveAlpha: (Int) -> Bool) {
        self.frames = frames
        self.width = canvasWidth
        self.height = canvasHeight
        self.canvas = Bitmap(width: 0, height: 0)  // allocated on first use: stills never need it
        var starts: [(Bool, Bool)] = []
        for (i, frame) in frames.enumerated() {
            let covers = frame.covers(width: canvasWidth, height: canvasHeight) && (frame.blend == .source || !mayHaveAlpha(i))
            var clear = i == 0
            if i > 0 {
                let previous = frames[i - 1]
                clear =
                    previous.disposal == .background
                    && (previous.covers(width: canvasWidth, height: canvasHeight) || starts[i - 1].0)
            }
            starts.append((clear, covers))
        }
        self.starts = starts
    }

    /// The canvas after drawing frame `target`.
    mutating func frame(at target: Int, decode: (Int) throws(ImageError) -> Bitmap) throws(ImageError) -> Bitmap {
        if drawn == target { return canvas }
        var first = replayStart(for: target)
        if let drawn, drawn < target, drawn + 1 > first {
            first = drawn + 1  // continue from the canvas
        } else {
            canvas = Bitmap(width: width, height: height)
            drawn = nil
            saved = nil
        }
        do {
            for index in first...target { try draw(index, decode: decode) }
        } catch {
            // The canvas may be half-disposed: start over next time.
            drawn = nil
            saved = nil
            throw error
        }
        return canvas
    }

    /// The latest frame at or before `target` that can be drawn onto a transparent canvas.
    private func replayStart(for target: Int) -> Int {
        var k = target
        while k > 0 {
            if starts[k].clearStart { return k }
            // A covering frame is a safe start unless it later restores what was under it.
            if starts[k].covers && (k == target || frames[k].disposal != .previous) { return k }
            k -= 1
        }
        return 0
    }

    private mutating func draw(_ index: Int, decode: (Int) throws(ImageError) -> Bitmap) throws(ImageError) {
        if let drawn { dispose(drawn) }
        let frame = frames[index]
        let rect = ClippedRect(frame, canvasWidth: width, canvasHeight: height)
        saved = frame.disposal == .previous ? (rect, copy(rect)) : nil
        let pixels = try decode(index)
        drawn = index
        guard !rect.isEmpty, pixels.width == frame.width, pixels.height == frame.height else { return }
        blit(pixels, into: rect, blend: frame.blend)
    }

    private mutating func dispose(_ index: Int) {
        let rect = ClippedRect(frames[index], canvasWidth: width, canvasHeight: height)
        guard !rect.isEmpty else { return }
        switch frames[index].disposal {
        case .none:
            break
        case .background:
            let stride = canvas.bytesPerRow
            canvas.pixels.withUnsafeMutableBufferPointer { out in
                for y in rect.y0..<rect.y1 {
                    let start = y * stride + rect.x0 * 4
                    out[start..<(start + rect.width * 4)].update(repeating: 0)
                }
            }
        case .previous:
            guard let saved else { return }
            let stride = canvas.bytesPerRow
            canvas.pixels.withUnsafeMutableBufferPointer { out in
                for (row, y) in (saved.rect.y0..<saved.rect.y1).enumerated() {
                    let start = y * stride + saved.rect.x0 * 4
                    let from = row * saved.rect.width * 4
                    for i in 0..<(saved.rect.width * 4) { out[start + i] = saved.pixels[from + i] }
                }
            }
        }
    }

    private func copy(_ rect: ClippedRect) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.y0..<rect.y1 {
            let start = y * canvas.bytesPerRow + rect.x0 * 4
            out.append(contentsOf: canvas.pixels[start..<(start + rect.width * 4)])
        }
        return out
    }

    /// Draws `source` (the frame's own pixels) into the visible part `rect` of its rectangle.
    private mutating func blit(_ source: Bitmap, into rect: ClippedRect, blend: FrameBlend) {
        let stride = canvas.bytesPerRow
        let sourceStride = source.bytesPerRow
        let rowBytes = rect.width * 4
        source.pixels.withUnsafeBufferPointer { src in
            canvas.pixels.withUnsafeMutableBufferPointer { dst in
                for y in rect.y0..<rect.y1 {
                    var s = (y - rect.frameY) * sourceStride + (rect.x0 - rect.frameX) * 4
                    var d = y * stride + rect.x0 * 4
                    if blend == .source {
                        // Both rows lie inside their buffers: ClippedRect keeps the rectangle on
                        // the canvas and `draw` checked the source's size.
                        UnsafeMutableRawPointer(dst.baseAddress! + d).copyMemory(from: src.baseAddress! + s, byteCount: rowBytes)
                        continue
                    }
                    var remaining = rect.width
                    // Four pixels at a time when they are all opaque or all transparent (most
                    // pixels of animation frames are one or the other); one at a time otherwise.
                    while remaining > 0 {
                        if remaining >= 4 {
                            let four = UnsafeRawPointer(src.baseAddress! + s).loadUnaligned(as: SIMD4<UInt32>.self)
                            let alphas = four &>> 24  // the fourth byte of each pixel (little-endian)
                            let opaque = alphas == SIMD4(repeating: 255)
                            if opaque || alphas == SIMD4(repeating: 0) {
                                if opaque { UnsafeMutableRawPointer(dst.baseAddress! + d).storeBytes(of: four, as: SIMD4<UInt32>.self) }
                                s += 16
                                d += 16
                                remaining -= 4
                                continue
                            }
                        }
                        let pixel = UnsafeRawPointer(src.baseAddress! + s).loadUnaligned(as: UInt32.self)
                        let alpha = pixel >> 24
                        if alpha == 255 {
                            UnsafeMutableRawPointer(dst.baseAddress! + d).storeBytes(of: pixel, as: UInt32.self)
                        } else if alpha != 0 {
                            Bitmap.blendOver(src[s], src[s + 1], src[s + 2], src[s + 3], into: dst, at: d)
                        }
                        s += 4
                        d += 4
                        remaining -= 1
                    }
                }
            }
        }
    }
}

/// A frame rectangle clipped to the canvas.
struct ClippedRect {
    let frameX: Int, frameY: Int
    let x0: Int, y0: Int, x1: Int, y1: Int

    init(_ frame: ImageFrameInfo, canvasWidth: Int, canvasHeight: Int) {
        frameX = frame.x
        frameY = frame.y
        x0 = min(max(frame.x, 0), canvasWidth)
        y0 = min(max(frame.y, 0), canvasHeight)
        x1 = max(x0, min(frame.x + frame.width, canvasWidth))
        y1 = max(y0, min(frame.y + frame.height, canvasHeight))
    }

    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    var isEmpty: Bool { width == 0 || height == 0 }
}

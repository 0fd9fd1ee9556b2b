extension Bitmap {
    /// This bitmap shrunk so that neither side exceeds `maxPixelSize` (below 1 counts as 1, as
    /// sizes do in ``resized(width:height:)``), keeping the aspect ratio (area averaging, in
    /// premultiplied space so transparent pixels do not darken edges). Returns `self` when it
    /// already fits.
    public func downsampled(toFit maxPixelSize: Int) -> Bitmap {
        let maxPixelSize = max(1, maxPixelSize)
        let longest = max(width, height)
        guard longest > maxPixelSize else { return self }
        let scale = Double(maxPixelSize) / Double(longest)
        let newWidth = max(1, Int((Double(width) * scale).rounded()))
        let newHeight = max(1, Int((Double(height) * scale).rounded()))
        return resampledByArea(width: newWidth, height: newHeight)
    }

    /// This bitmap at `width` × `height` pixels: each pixel the average of the pixels under it
    /// when shrinking, the nearest pixel when enlarging (at least 1 × 1).
    public func resized(width newWidth: Int, height newHeight: Int) -> Bitmap {
        let (newWidth, newHeight) = (max(1, newWidth), max(1, newHeight))
        guard newWidth != width || newHeight != height else { return self }
        guard width > 0, height > 0 else { return Bitmap(width: newWidth, height: newHeight, alphaMode: alphaMode) }
        return resampledByArea(width: newWidth, height: newHeight)
    }

    /// Area-average resampling (each output pixel averages the source pixels whose centres fall
    /// in its footprint; enlarging repeats pixels).
    func resampledByArea(width newWidth: Int, height newHeight: Int) -> Bitmap {
        let source = alphaMode == .premultiplied ? self : premultiplied()
        var out = Bitmap(width: newWidth, height: newHeight, alphaMode: .premultiplied)
        let (w, h, stride) = (width, height, source.bytesPerRow)
        // Column ranges once, reused for every row.
        let columns = (0..<newWidth).map { x in (x * w / newWidth)..<max(x * w / newWidth + 1, (x + 1) * w / newWidth) }
        source.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<newHeight {
                    let rows = (y * h / newHeight)..<max(y * h / newHeight + 1, (y + 1) * h / newHeight)
                    for x in 0..<newWidth {
                        var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                        for sy in rows {
                            var i = sy * stride + columns[x].lowerBound * 4
                            for _ in columns[x] {
                                sum.0 += UInt32(src[i])
                                sum.1 += UInt32(src[i + 1])
                                sum.2 += UInt32(src[i + 2])
                                sum.3 += UInt32(src[i + 3])
                                i += 4
                            }
                        }
                        let n = UInt32(rows.count * columns[x].count)
                        let o = (y * newWidth + x) * 4
                        dst[o] = UInt8((sum.0 + n / 2) / n)
                        dst[o + 1] = UInt8((sum.1 + n / 2) / n)
                        dst[o + 2] = UInt8((sum.2 + n / 2) / n)
                        dst[o + 3] = UInt8((sum.3 + n / 2) / n)
                    }
                }
            }
        }
        // Averages of alpha 255 are 255.
        if isKnownOpaque { out.markOpaque() }
        return alphaMode == .premultiplied ? out : out.straightened()
    }

    /// This bitmap turned upright for an EXIF orientation (1 = already upright).
    public func oriented(_ orientation: ImageOrientation) -> Bitmap {
        guard orientation != .up else { return self }
        let swapsAxes = orientation.swapsAxes
        let (w, h) = (width, height)
        var out = Bitmap(width: swapsAxes ? h : w, height: swapsAxes ? w : h, alphaMode: alphaMode)
        let stride = bytesPerRow
        let outWidth = out.width
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        // Where source pixel (x, y) lands in the upright image.
                        let (dx, dy): (Int, Int)
                        switch orientation {
                        case .up: (dx, dy) = (x, y)
                        case .upMirrored: (dx, dy) = (w - 1 - x, y)
                        case .down: (dx, dy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (dx, dy) = (x, h - 1 - y)
                        case .leftMirrored: (dx, dy) = (y, x)
                        case .right: (dx, dy) = (h - 1 - y, x)
                        case .rightMirrored: (dx, dy) = (h - 1 - y, w - 1 - x)
                        case .left: (dx, dy) = (y, w - 1 - x)
                        }
                        let s = y * stride + x * 4
                        let d = (dy * outWidth + dx) * 4
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                        dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        if isKnownOpaque { out.markOpaque() }
        return out
    }

    /// This bitmap placed at the top-left of a larger transparent one (or cropped to a smaller one).
    func resizedCanvas(width newWidth: Int, height newHeight: Int) -> Bitmap {
        guard newWidth != width || newHeight != height else { return self }
        return cropped(to: PixelRect(x: 0, y: 0, width: newWidth, height: newHeight))
    }

    /// The pixels inside `rect`, which may reach past the edges: the part outside this bitmap is
    /// transparent. Negative sizes give an empty bitmap.
    public func cropped(to rect: PixelRect) -> Bitmap {
        var out = Bitmap(width: max(0, rect.width), height: max(0, rect.height), alphaMode: alphaMode)
        // The columns and rows of `rect` that lie on this bitmap, copied a row at a time.
        let firstColumn = max(rect.x, 0), endColumn = min(rect.x + out.width, width)
        let firstRow = max(rect.y, 0), endRow = min(rect.y + out.height, height)
        guard firstColumn < endColumn, firstRow < endRow else { return out }
        let rowBytes = (endColumn - firstColumn) * 4
        for y in firstRow..<endRow {
            let source = y * bytesPerRow + firstColumn * 4
            let target = (y - rect.y) * out.bytesPerRow + (firstColumn - rect.x) * 4
            out.pixels.replaceSubrange(target..<(target + rowBytes), with: pixels[source..<(source + rowBytes)])
        }
        // Opaque only when `rect` lies inside this bitmap (a part past the edges is transparent).
        if isKnownOpaque && rect.x >= 0 && rect.y >= 0 && rect.x + out.width <= width && rect.y + out.height <= height {
            out.markOpaque()
        }
        return out
    }
}

/// The EXIF orientation of an image: how the stored pixels must be turned to appear upright.
/// Raw values are EXIF's (1...8).
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright (EXIF 1).
    case up = 1
    /// Mirrored left-right (EXIF 2).
    case upMirrored = 2
    /// Rotated 180° (EXIF 3).
    case down = 3
    /// Mirrored top-bottom (EXIF 4).
    case downMirrored = 4
    /// Mirrored along the main diagonal (EXIF 5).
    case leftMirrored = 5
    /// Needs a 90° clockwise turn (EXIF 6).
    case right = 6
    /// Mirrored along the anti-diagonal (EXIF 7).
    case rightMirrored = 7
    /// Needs a 90° counter-clockwise turn (EXIF 8).
    case left = 8

    /// Whether upright width and height are the stored height and width.
    public var swapsAxes: Bool { rawValue >= 5 }
}

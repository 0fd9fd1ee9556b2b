import Foundation

extension Bitmap {
    /// Turned `degrees` clockwise about its centre onto the smallest canvas that holds it, the
    /// corners transparent; sampled bilinearly on premultiplied colour, so edges fade without a
    /// dark fringe. Quarter turns are exact (``rotated(_:)``). The canvas may have at most
    /// `maxPixels` pixels.
    public func rotated(byDegrees degrees: Double, maxPixels: Int = ProcessingLimits.maxOutputPixels) throws(ImageError) -> Bitmap {
        guard degrees.isFinite else { throw .invalidParameter(name: "rotation", "\(degrees) degrees: give a finite angle") }
        let angle = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        if angle == 0 { return self }
        if let turn = QuarterTurn(rawValue: Int(angle)), Double(turn.rawValue) == angle { return rotated(turn) }
        let radians = angle * .pi / 180
        let (c, s) = (cos(radians), sin(radians))
        let (w, h) = (Double(width), Double(height))
        // The bounding box, less a hair so that exact sides do not round up a pixel.
        let outWidth = max(1, Int((abs(w * c) + abs(h * s) - 1e-9).rounded(.up)))
        let outHeight = max(1, Int((abs(w * s) + abs(h * c) - 1e-9).rounded(.up)))
        guard outWidth <= maxPixels / outHeight else {
            throw .invalidParameter(name: "rotation", "a \(outWidth)x\(outHeight) canvas is over the limit of \(maxPixels) pixels")
        }
        let source = premultiplied()
        var out = Bitmap(width: outWidth, height: outHeight, alphaMode: .premultiplied)
        let (stride, outStride) = (source.bytesPerRow, out.bytesPerRow)
        source.pixels.withUnsafeBufferPointer { input in
            out.pixels.withUnsafeMutableBufferPointer { output in
                // The sample at (x, y), transparent outside the picture.
                func sample(_ x: Int, _ y: Int, _ channel: Int) -> Double {
                    guard x >= 0, y >= 0, x < width, y < height else { return 0 }
                    return Double(input[y * stride + x * 4 + channel])
                }
                for row in 0..<outHeight {
                    let dy = Double(row) + 0.5 - Double(outHeight) / 2
                    for column in 0..<outWidth {
                        let dx = Double(column) + 0.5 - Double(outWidth) / 2
                        // The inverse turn takes the pixel's centre back into the source.
                        let sx = dx * c + dy * s + w / 2 - 0.5, sy = -dx * s + dy * c + h / 2 - 0.5
                        let (x0, y0) = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
                        guard x0 >= -1, y0 >= -1, x0 < width, y0 < height else { continue }
                        let (fx, fy) = (sx - Double(x0), sy - Double(y0))
                        let d = row * outStride + column * 4
                        for channel in 0..<4 {
                            let top = sample(x0, y0, channel) * (1 - fx) + sample(x0 + 1, y0, channel) * fx
                            let bottom = sample(x0, y0 + 1, channel) * (1 - fx) + sample(x0 + 1, y0 + 1, channel) * fx
                            output[d + channel] = UInt8(min(255, max(0, (top * (1 - fy) + bottom * fy).rounded())))
                        }
                    }
                }
            }
        }
        return out.converted(to: alphaMode)
    }
}

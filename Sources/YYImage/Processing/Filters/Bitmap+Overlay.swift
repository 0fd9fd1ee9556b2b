import Foundation

/// A linear gradient from transparent to a colour, laid over a picture (imgproxy's `gradient`).
public struct GradientOverlay: Sendable, Hashable, Codable {
    /// The colour the gradient ends in (its alpha is ignored: ``opacity`` sets it).
    public var color: RGBA
    /// The alpha where the gradient is solid, 0...1.
    public var opacity: Double
    /// The direction it grows towards, in degrees clockwise from down: 0 is transparent at the
    /// top and solid at the bottom, 90 transparent at the right and solid at the left.
    public var angle: Double
    /// Where along that direction (0 the first edge, 1 the last) it starts to show and where it
    /// becomes solid; a stop at or before the start is a hard edge at the start.
    public var start: Double
    public var stop: Double

    /// A gradient to `color` at `opacity`, growing towards `angle`, between `start` and `stop`.
    public init(color: RGBA, opacity: Double, angle: Double = 0, start: Double = 0, stop: Double = 1) {
        self.color = color
        self.opacity = opacity
        self.angle = angle
        self.start = start
        self.stop = stop
    }
}

extension Bitmap {
    /// `color` laid over the whole picture at `opacity` (0...1; imgproxy's `colorize`): over
    /// every pixel as Porter-Duff "over" (transparent pixels take the colour at that opacity),
    /// or, with `keepsAlpha`, mixed into the colours only, alpha unchanged.
    public func colorized(with color: RGBA, opacity: Double, keepsAlpha: Bool = false) throws(ImageError) -> Bitmap {
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw .invalidParameter(name: "colorize", "an opacity of \(opacity): give 0...1")
        }
        guard opacity > 0 else { return self }
        let alpha = UInt8((opacity * 255).rounded())
        var out = converted(to: .straight)
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<height {
                var d = row * bytesPerRow
                for _ in 0..<width {
                    if keepsAlpha {
                        let kept = buffer[d + 3]
                        buffer[d + 3] = 255
                        Self.blendOver(color.r, color.g, color.b, alpha, into: buffer, at: d)
                        buffer[d + 3] = kept
                    } else {
                        Self.blendOver(color.r, color.g, color.b, alpha, into: buffer, at: d)
                    }
                    d += 4
                }
            }
        }
        return out.converted(to: alphaMode)
    }

    /// `gradient` laid over the picture with Porter-Duff "over".
    public func overlaid(with gradient: GradientOverlay) throws(ImageError) -> Bitmap {
        let g = gradient
        guard g.opacity.isFinite, (0...1).contains(g.opacity) else {
            throw .invalidParameter(name: "gradient", "an opacity of \(g.opacity): give 0...1")
        }
        guard g.angle.isFinite, g.start.isFinite, g.stop.isFinite else {
            throw .invalidParameter(name: "gradient", "give a finite angle, start and stop")
        }
        guard g.opacity > 0, width > 0, height > 0 else { return self }
        // Each pixel centre's distance along the direction, from the first corner it reaches (0)
        // to the last (1).
        let radians = g.angle * .pi / 180
        let (dx, dy) = (-sin(radians), cos(radians))
        let corners = [0.0, dx * Double(width), dy * Double(height), dx * Double(width) + dy * Double(height)]
        let (low, high) = (corners.min()!, corners.max()!)
        let span = high - low
        var out = converted(to: .straight)
        out.pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<height {
                var d = row * bytesPerRow
                for column in 0..<width {
                    let along = span > 0 ? ((Double(column) + 0.5) * dx + (Double(row) + 0.5) * dy - low) / span : 0
                    let ramp: Double
                    if g.stop <= g.start {
                        ramp = along < g.start ? 0 : 1
                    } else {
                        ramp = min(1, max(0, (along - g.start) / (g.stop - g.start)))
                    }
                    let alpha = UInt8((ramp * g.opacity * 255).rounded())
                    Self.blendOver(g.color.r, g.color.g, g.color.b, alpha, into: buffer, at: d)
                    d += 4
                }
            }
        }
        return out.converted(to: alphaMode)
    }
}

/// Where a crop keeps, or a pad places, the image: a compass point, a focal point, or a window
/// chosen from the pixels.
public enum Gravity: Sendable, Hashable, Codable {
    /// The middle (the default).
    case center
    /// Top edge, centred.
    case north
    /// Bottom edge, centred.
    case south
    /// Right edge, centred.
    case east
    /// Left edge, centred.
    case west
    /// Top-right corner.
    case northEast
    /// Top-left corner.
    case northWest
    /// Bottom-right corner.
    case southEast
    /// Bottom-left corner.
    case southWest
    /// Centred on a point given as fractions of the width and height (0...1), as far as the edges allow.
    case focalPoint(x: Double, y: Double)
    /// The window whose luminance histogram has the most entropy (the busiest part).
    case entropy
    /// The window with the most edges, saturated colour and skin tones (what draws the eye).
    case attention

    /// The names cases are encoded under: `center` keeps the name archives wrote before it was
    /// spelled so.
    private enum CodingKeys: String, CodingKey {
        case center = "centre"
        case north, south, east, west, northEast, northWest, southEast, southWest, focalPoint, entropy, attention
    }

    /// Where a `window` × `window` span sits in `extent`, from 0 (start) to 1 (end), for the
    /// compass points and focal points; `nil` for the smart modes.
    package func alignment() -> (x: Double, y: Double)? {
        switch self {
        case .center: (0.5, 0.5)
        case .north: (0.5, 0)
        case .south: (0.5, 1)
        case .east: (1, 0.5)
        case .west: (0, 0.5)
        case .northEast: (1, 0)
        case .northWest: (0, 0)
        case .southEast: (1, 1)
        case .southWest: (0, 1)
        case .focalPoint, .entropy, .attention: nil
        }
    }

    /// The top-left corner of a `window` placed in an `extent` no smaller on either side: the
    /// compass points align it, a focal point centres it on the point as far as the edges allow,
    /// the smart modes (which need the pixels: ``cropOrigin(in:width:height:)``) centre it. The
    /// one rule for where a crop keeps and where padding puts the image, as imgproxy places both.
    package func origin(of window: (width: Int, height: Int), in extent: (width: Int, height: Int)) -> (x: Int, y: Int) {
        if case .focalPoint(let fx, let fy) = self {
            return (
                Self.offset(window: window.width, extent: extent.width, focus: fx),
                Self.offset(window: window.height, extent: extent.height, focus: fy)
            )
        }
        let alignment = alignment() ?? (0.5, 0.5)
        return (
            Self.offset(window: window.width, extent: extent.width, alignment: alignment.x),
            Self.offset(window: window.height, extent: extent.height, alignment: alignment.y)
        )
    }

    /// ``origin(of:in:)`` moved by `offset` pixels away from the edge it is anchored to (toward
    /// the right and the bottom on an axis it centres), kept inside `extent`: imgproxy's gravity
    /// offsets. A focal point or a smart mode takes no offset.
    package func origin(
        of window: (width: Int, height: Int), in extent: (width: Int, height: Int), offset: (x: Int, y: Int)
    ) -> (x: Int, y: Int) {
        let base = origin(of: window, in: extent)
        guard let alignment = alignment(), offset != (0, 0) else { return base }
        let x = base.x + (alignment.x == 1 ? -offset.x : offset.x)
        let y = base.y + (alignment.y == 1 ? -offset.y : offset.y)
        return (min(max(0, extent.width - window.width), max(0, x)), min(max(0, extent.height - window.height), max(0, y)))
    }

    /// The top-left corner of the `width` × `height` window of `bitmap` this gravity keeps: the
    /// smart modes search the pixels, the others are ``origin(of:in:)``.
    package func cropOrigin(in bitmap: Bitmap, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .entropy, .attention: SmartCrop.origin(in: bitmap, width: width, height: height, gravity: self)
        default: origin(of: (width, height), in: (bitmap.width, bitmap.height))
        }
    }

    /// The offset of a `window`-long span in an `extent`-long one.
    private static func offset(window: Int, extent: Int, alignment: Double) -> Int {
        max(0, Int((Double(extent - window) * alignment).rounded()))
    }

    /// The offset of a `window`-long span centred on `focus` (0...1 of `extent`), kept inside.
    private static func offset(window: Int, extent: Int, focus: Double) -> Int {
        let centred = Int((focus * Double(extent) - Double(window) / 2).rounded())
        return min(max(0, extent - window), max(0, centred))
    }

    /// Parses the spelling the command line and URLs use: `centre` (or `center`), the compass
    /// names, `entropy`, `attention`, or `FX,FY` fractions.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "centre", "center": self = .center
        case "north": self = .north
        case "south": self = .south
        case "east": self = .east
        case "west": self = .west
        case "northeast": self = .northEast
        case "northwest": self = .northWest
        case "southeast": self = .southEast
        case "southwest": self = .southWest
        case "entropy": self = .entropy
        case "attention": self = .attention
        default:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]),
                (0...1).contains(x), (0...1).contains(y)
            else { return nil }
            self = .focalPoint(x: x, y: y)
        }
    }

    /// The spelling ``init(parsing:)`` reads, for cache keys: fixed, whatever the cases are
    /// called.
    package var spelling: String {
        switch self {
        case .center: "centre"
        case .north: "north"
        case .south: "south"
        case .east: "east"
        case .west: "west"
        case .northEast: "northeast"
        case .northWest: "northwest"
        case .southEast: "southeast"
        case .southWest: "southwest"
        case .focalPoint(let x, let y): "\(x),\(y)"
        case .entropy: "entropy"
        case .attention: "attention"
        }
    }
}

extension Gravity {
    /// The former spelling of ``center``.
    @available(*, deprecated, renamed: "center")
    public static var centre: Gravity { .center }
}

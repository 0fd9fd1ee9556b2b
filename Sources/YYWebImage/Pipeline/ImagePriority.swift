/// How urgently a request's image is wanted. A task shared by several requests runs at the
/// highest priority among them, and moves up or down as they come, go or change.
public enum ImagePriority: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case veryLow
    case low
    case normal
    case high
    case veryHigh

    public static func < (lhs: ImagePriority, rhs: ImagePriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name, as `yy fetch --json` and the logs print it.
    public var description: String {
        switch self {
        case .veryLow: "very low"
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        case .veryHigh: "very high"
        }
    }
}

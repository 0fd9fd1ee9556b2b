/// How an image meets a target box, with sharp's names and rules.
public enum FitMode: String, Sendable, CaseIterable, Codable {
    /// Keep the aspect ratio, as large as fits within the box (the default).
    case inside
    /// Keep the aspect ratio, fill the box, and crop the overflow at the gravity.
    case cover
    /// Keep the aspect ratio, fit within the box, and pad to it with the background colour.
    case contain
    /// Stretch to the box, ignoring the aspect ratio.
    case fill
    /// Keep the aspect ratio, as small as covers the box (no crop).
    case outside
}

// The standard-library extensions the macros' own code uses, kept in one place.

extension String {
    /// The text without the backticks around an escaped identifier (`` `init` `` → `init`).
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count > 1 ? String(dropFirst().dropLast()) : self
    }
}

import Foundation

/// The media ranges of an `Accept` header with their q-values.
struct AcceptHeader {
    private var ranges: [(type: String, q: Double)] = []

    init(_ header: String) {
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                q = Double(parameter.dropFirst(2)) ?? 1
            }
            ranges.append((type, q))
        }
    }

    /// Whether `mediaType` is accepted by name with a q-value above 0 (wildcards do not count:
    /// `*/*` is sent by clients that would not show an AVIF).
    func accepts(_ mediaType: String) -> Bool {
        ranges.contains { $0.type == mediaType && $0.q > 0 }
    }
}

import Foundation

/// The Cache-Control directives a private image cache obeys (RFC 9111 §5.2.2).
struct CacheControl: Equatable {
    /// `no-store`: keep nothing on disk.
    var noStore = false
    /// `no-cache`: store, but revalidate before every use.
    var noCache = false
    /// `must-revalidate`: once stale, never served without asking.
    var mustRevalidate = false
    /// `max-age=N`, in seconds.
    var maxAge: Int?

    /// The directives of every Cache-Control field in `headers`; unknown ones are ignored.
    init(_ headers: HTTPHeaderFields) {
        for value in headers.values(for: "Cache-Control") {
            for directive in value.split(separator: ",") {
                let pair = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                switch pair.first {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "must-revalidate": mustRevalidate = true
                case "max-age":
                    // A malformed max-age means stale (RFC 9111 §4.2.1); a huge one saturates.
                    let text = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                    maxAge = text.allSatisfy(\.isNumber) && !text.isEmpty ? Int(text) ?? Int(Int32.max) : 0
                default: break
                }
            }
        }
    }
}

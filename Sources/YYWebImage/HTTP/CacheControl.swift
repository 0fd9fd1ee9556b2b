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
    ///
    /// Directive names compare ignoring ASCII case and spaces around them are dropped, on the
    /// field's own characters rather than through Foundation's `trimmingCharacters(in:)` and
    /// `lowercased()`: this parse runs on every cold load.
    init(_ headers: HTTPHeaderFields) {
        for value in headers.values(for: "Cache-Control") {
            for directive in value.split(separator: ",") {
                let pair = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = pair[0].trimmingHTTPSpaces()
                if name.caseInsensitiveEquals("no-store") {
                    noStore = true
                } else if name.caseInsensitiveEquals("no-cache") {
                    noCache = true
                } else if name.caseInsensitiveEquals("must-revalidate") {
                    mustRevalidate = true
                } else if name.caseInsensitiveEquals("max-age") {
                    maxAge = Self.seconds(pair.count > 1 ? pair[1] : "")
                }
            }
        }
    }

    /// A `max-age` value: ASCII digits, perhaps quoted. A malformed one means stale (RFC 9111
    /// §4.2.1); one too large for `Int` saturates.
    private static func seconds(_ text: Substring) -> Int {
        var digits = text.trimmingHTTPSpaces()
        while digits.first == "\"" { digits.removeFirst() }
        while digits.last == "\"" { digits.removeLast() }
        guard digits.isASCIIDigits else { return 0 }
        return Int(digits) ?? Int(Int32.max)
    }
}

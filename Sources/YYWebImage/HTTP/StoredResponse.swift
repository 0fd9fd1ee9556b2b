import Foundation

/// What the disk cache keeps beside an image's bytes (in its extended data): the validators to
/// revalidate with and how long the bytes stay fresh.
struct StoredResponse: Codable, Sendable, Equatable {
    /// The ETag, sent back as If-None-Match.
    var etag: String?
    /// Last-Modified, sent back verbatim as If-Modified-Since.
    var lastModified: String?
    /// Until when the bytes may be used without asking the server.
    var freshUntil: Date
    /// The status the bytes came with.
    var statusCode: Int

    /// Whether the server must be asked before the bytes are used at `now`.
    func needsRevalidation(at now: Date) -> Bool { now >= freshUntil }

    /// The conditional request fields (empty when there is nothing to validate with).
    var validatorHeaders: HTTPHeaderFields {
        var headers = HTTPHeaderFields()
        if let etag { headers.append(name: "If-None-Match", value: etag) }
        if let lastModified { headers.append(name: "If-Modified-Since", value: lastModified) }
        return headers
    }

    /// The validators as the response sent them (`ETag`, `Last-Modified`): what a cached copy
    /// reports as its headers.
    var validators: HTTPHeaderFields {
        var headers = HTTPHeaderFields()
        if let etag { headers.append(name: "ETag", value: etag) }
        if let lastModified { headers.append(name: "Last-Modified", value: lastModified) }
        return headers
    }

    /// The record for a response received at `now`, or `nil` when it must not be stored
    /// (`no-store`).
    ///
    /// Freshness follows RFC 9111 §4.2: `max-age`, else `Expires` minus `Date`, else 10 % of the
    /// time since `Last-Modified` (at most a day), else `defaultLifetime`; minus the response's
    /// age (`Age`, or how old its `Date` is). `no-cache` makes it stale at once.
    init?(statusCode: Int, headers: HTTPHeaderFields, now: Date, defaultLifetime: TimeInterval) {
        let control = CacheControl(headers)
        guard !control.noStore else { return nil }
        let date = headers["Date"].flatMap(HTTPDate.parse) ?? now
        let lifetime: TimeInterval
        if control.noCache {
            lifetime = 0
        } else if let maxAge = control.maxAge {
            lifetime = TimeInterval(maxAge)
        } else if let expires = headers["Expires"] {
            // An Expires that does not parse ("0", "-1") means already expired.
            lifetime = HTTPDate.parse(expires).map { $0.timeIntervalSince(date) } ?? 0
        } else if let modified = headers["Last-Modified"].flatMap(HTTPDate.parse) {
            lifetime = min(max(0, date.timeIntervalSince(modified)) / 10, 86_400)
        } else {
            lifetime = defaultLifetime
        }
        let ageHeader = headers["Age"].flatMap { TimeInterval($0.trimmingHTTPSpaces()) } ?? 0
        let age = max(0, ageHeader, now.timeIntervalSince(date))
        self.etag = headers["ETag"]
        self.lastModified = headers["Last-Modified"]
        self.freshUntil = now.addingTimeInterval(max(0, lifetime - age))
        self.statusCode = statusCode
    }

    /// The record after a 304: the 304's freshness, its validators where it sent any, ours
    /// otherwise; `nil` when the 304 says `no-store`.
    func refreshed(by headers: HTTPHeaderFields, now: Date, defaultLifetime: TimeInterval) -> StoredResponse? {
        var merged = headers
        if headers["ETag"] == nil, let etag { merged.append(name: "ETag", value: etag) }
        if headers["Last-Modified"] == nil, let lastModified { merged.append(name: "Last-Modified", value: lastModified) }
        return StoredResponse(statusCode: statusCode, headers: merged, now: now, defaultLifetime: defaultLifetime)
    }
}

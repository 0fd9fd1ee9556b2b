import Foundation

/// The sources an operator allows (`--allowed-source`), matched as parsed URLs: the scheme, the
/// host and the port must be equal, and the path must start with the prefix's path on a segment
/// boundary (`http://a/img` allows `http://a/img/x.jpg`, not `http://a/imgs/x.jpg`). Text
/// compared as text would let `http://127.0.0.1:8080@other-host/` pass for
/// `http://127.0.0.1:8080`. The loader asks again on every redirect hop.
struct SourceAllowList: Sendable {
    /// One allowed prefix, parsed.
    struct Entry: Sendable, Equatable {
        /// The prefix parsed as a source.
        let prefix: Source
        /// Its path without the trailing slash; empty allows every path.
        let path: String

        /// `text` parsed, or `nil` when it is no absolute http(s):// or local:// URL or carries
        /// user info.
        init?(_ text: String) {
            guard let prefix = Source(text) else { return nil }
            self.prefix = prefix
            path = prefix.path.hasSuffix("/") ? String(prefix.path.dropLast()) : prefix.path
        }

        func allows(_ source: Source) -> Bool {
            guard source.scheme == prefix.scheme, source.host == prefix.host, source.port == prefix.port else { return false }
            return path.isEmpty || source.path == path || source.path.hasPrefix(path + "/")
        }
    }

    /// A source URL as the list compares it: scheme and host lowercased, the port made explicit.
    struct Source: Sendable, Equatable {
        let scheme: String
        /// Lowercased, without IPv6 brackets; empty for `local:`.
        let host: String
        let port: Int?
        let path: String

        /// `nil` for anything but an absolute http(s):// URL without user info, or a local://
        /// path (taken as written: file names need no escaping).
        init?(_ text: String) {
            if text.lowercased().hasPrefix("local://") {
                scheme = "local"
                host = ""
                port = nil
                path = String(text.dropFirst("local://".count))
                return
            }
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", components.user == nil, components.password == nil,
                let host = components.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !host.isEmpty
            else { return nil }
            self.scheme = scheme
            self.host = host
            port = components.port ?? (scheme == "https" ? 443 : 80)
            path = components.percentEncodedPath
        }
    }

    /// The prefixes (empty: every source is allowed).
    let entries: [Entry]

    /// Every source (but those with user info).
    static let everySource = SourceAllowList(entries: [])

    private init(entries: [Entry]) {
        self.entries = entries
    }

    /// The list of `prefixes` (none: every source is allowed).
    ///
    /// - Throws: ``UnreadableAllowedSource`` for the first prefix that is no URL the list can compare.
    init(prefixes: [String]) throws(UnreadableAllowedSource) {
        entries = try prefixes.map { (prefix) throws(UnreadableAllowedSource) in
            guard let entry = Entry(prefix) else { throw UnreadableAllowedSource(prefix: prefix) }
            return entry
        }
    }

    /// Whether `source` may be fetched. A URL with user info never may, list or no list; with
    /// no list, a source the list cannot read is left to the fetcher to refuse as it is.
    func allows(_ source: String) -> Bool {
        guard let parsed = Source(source) else {
            let userInfo = URLComponents(string: source).map { $0.user != nil || $0.password != nil } ?? false
            return entries.isEmpty && !userInfo
        }
        return entries.isEmpty || entries.contains { $0.allows(parsed) }
    }
}

/// An allowed source (``ImageServiceConfiguration/allowedSources``) that is no http(s):// or
/// local:// URL without user info: ``ImageService`` refuses to start with it.
public struct UnreadableAllowedSource: Error, Sendable, Equatable, CustomStringConvertible {
    /// The prefix as given.
    public let prefix: String

    /// What is wrong, naming the prefix.
    public var description: String { "the allowed source '\(prefix)' is not an http(s):// or local:// URL without user info" }
}

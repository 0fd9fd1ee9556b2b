import Foundation

/// Where one Redis server is and how to log in: `redis://[user:password@]host[:port][/db]`, or
/// `rediss://…` for TLS.
public struct RedisNodeAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host name or IP address.
    public var host: String
    /// The TCP port (default 6379).
    public var port: Int
    /// The ACL user for `AUTH` (Redis 6+), or `nil` for the default user.
    public var user: String?
    /// The password for `AUTH`, or `nil` to skip it.
    public var password: String?
    /// The database `SELECT`ed on each connection (default 0).
    public var database: Int
    /// Whether connections speak TLS (`rediss://`), with ``RedisConfiguration/tls``'s settings.
    /// Needs the package's `RedisTLS` trait (on by default): without it such a node's connections
    /// fail.
    public var usesTLS: Bool

    /// An address from its parts.
    public init(
        host: String, port: Int = 6379, user: String? = nil, password: String? = nil, database: Int = 0,
        usesTLS: Bool = false
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.usesTLS = usesTLS
    }

    /// Parses `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS; user and password
    /// may be percent-encoded.
    ///
    /// - Throws: ``RedisError/invalidURL(_:reason:)`` for another scheme, `rediss://` when the
    ///   package was built without its `RedisTLS` trait, a missing host, a port out of range, a
    ///   database that is not a number, or a query or fragment (`?db=2`: options this client does
    ///   not read, which it must not drop silently).
    public init(url: String) throws(RedisError) {
        guard let components = URLComponents(string: url) else { throw .invalidURL(url, reason: "not a URL") }
        let usesTLS: Bool
        switch components.scheme?.lowercased() {
        case "redis": usesTLS = false
        case "rediss":
            guard TLSConnector.isAvailable else {
                throw .invalidURL(url, reason: "rediss:// needs YYKit built with its RedisTLS trait, which this build turned off")
            }
            usesTLS = true
        default: throw .invalidURL(url, reason: "the scheme must be redis:// or rediss:// (TLS)")
        }
        // Other clients read options from the query (`?db=2`, `?protocol=3`); ignored, such a URL
        // would silently use database 0 with other settings than the user asked for.
        if components.query != nil || components.fragment != nil {
            throw .invalidURL(url, reason: "a query or fragment is not supported; give the database as the path (redis://host:port/db)")
        }
        guard var host = components.host, !host.isEmpty else { throw .invalidURL(url, reason: "no host") }
        // An IPv6 literal comes bracketed (`[::1]`), as URLs write it; a socket wants it bare.
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidURL(url, reason: "no host") }
        let port = components.port ?? 6379
        guard (1...65535).contains(port) else { throw .invalidURL(url, reason: "port \(port) is out of range") }
        var database = 0
        let path = components.path.drop { $0 == "/" }
        if !path.isEmpty {
            guard let number = Int(path), number >= 0 else {
                throw .invalidURL(url, reason: "the path must be a database number, not '\(path)'")
            }
            database = number
        }
        let user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        self.init(host: host, port: port, user: user, password: components.password, database: database, usesTLS: usesTLS)
    }

    /// `host:port`, and `/db` when it is not 0. Never the password, nor whether it is TLS: the
    /// name consistent hashing places the node by, so that turning TLS on moves no key.
    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return database == 0 ? "\(hostPart):\(port)" : "\(hostPart):\(port)/\(database)"
    }
}

/// What went wrong talking to Redis. Every case names the node (`host:port`) it concerns.
public enum RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `redis://` address that cannot be used.
    case invalidURL(String, reason: String)
    /// The connection could not be made (refused, unreachable, connect timeout).
    case connectionFailed(node: String, message: String)
    /// The server closed the connection, or it broke, before the reply was complete.
    case connectionClosed(node: String)
    /// No reply within the operation timeout.
    case timeout(node: String, after: Duration)
    /// The node failed recently; it is skipped until its back-off ends.
    case circuitOpen(node: String)
    /// The server sent bytes that are not RESP.
    case protocolError(node: String, message: String)
    /// The server refused the command (`-ERR …`, `-WRONGTYPE …`, `-OOM …`).
    case server(node: String, message: String)
    /// `AUTH` or `SELECT` failed while opening a connection.
    case authenticationFailed(node: String, message: String)
    /// A reply of a kind the command never returns.
    case unexpectedReply(node: String, command: String, reply: String)

    /// The first word of a server error (`WRONGTYPE`, `OOM`, `NOAUTH`, …), else `nil`.
    public var serverErrorCode: String? {
        guard case .server(_, let message) = self else { return nil }
        return message.split(separator: " ", maxSplits: 1).first.map(String.init)
    }

    /// The Redis Cluster redirection (`MOVED`, `ASK`) a server error carries, else `nil`.
    var clusterRedirect: ClusterRedirect? {
        guard case .server(_, let message) = self else { return nil }
        return ClusterRedirect(errorMessage: message)
    }

    /// Whether the error says the node is unhealthy (so its circuit opens), rather than that it
    /// refused one command.
    var isNodeFailure: Bool {
        switch self {
        case .connectionFailed, .connectionClosed, .timeout, .protocolError, .authenticationFailed: true
        case .invalidURL, .circuitOpen, .server, .unexpectedReply: false
        }
    }

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "invalid Redis URL '\(url)': \(reason)"
        case .connectionFailed(let node, let message): "cannot connect to Redis at \(node): \(message)"
        case .connectionClosed(let node): "the connection to Redis at \(node) closed before the reply"
        case .timeout(let node, let after): "Redis at \(node) did not answer within \(after)"
        case .circuitOpen(let node): "Redis at \(node) is skipped after a recent failure"
        case .protocolError(let node, let message): "Redis at \(node) sent a malformed reply: \(message)"
        case .server(let node, let message): "Redis at \(node) refused the command: \(message)"
        case .authenticationFailed(let node, let message): "Redis at \(node) refused the login: \(message)"
        case .unexpectedReply(let node, let command, let reply): "Redis at \(node) answered \(command) with \(reply)"
        }
    }
}

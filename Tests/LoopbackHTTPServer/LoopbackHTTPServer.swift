public import Foundation
import NIOCore
import NIOPosix

/// An HTTP/1.1 server on a loopback address (127.0.0.1 unless told) for tests and the demo. It writes exactly the bytes a script
/// says (so it can break HTTP the way hostile servers do), counts the requests it gets and
/// tracks its open connections.
///
/// ```swift
/// let server = try await LoopbackHTTPServer.start { request in
///     request.path == "/cat.png" ? .response(body: png) : .response(status: 404)
/// }
/// defer { server.stop() }
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// A request the server received (bodies are not read: the clients here only GET).
    public struct Request: Sendable {
        /// GET, HEAD, …
        public var method: String
        /// The target as sent, query included.
        public var path: String
        /// The header fields in order.
        public var headers: [(name: String, value: String)]

        /// The first value of a header field, compared without case.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// One thing the server does on a connection, in order.
    public enum Step: Sendable {
        /// Writes these bytes.
        case send([UInt8])
        /// Waits before the next step (the connection stays open).
        case pause(Duration)
        /// Closes the connection.
        case close
        /// Aborts the connection with a TCP reset (SO_LINGER 0).
        case reset
        /// Does nothing more on this connection, leaving it open.
        case stall
        /// Writes these bytes again and again until the client goes away.
        case sendForever([UInt8])
        /// Holds the next steps until the test opens the gate (at once if it is open): for
        /// pacing a response by what the client has received rather than by time alone.
        case waitFor(Gate)
    }

    /// A barrier that a test opens once; ``Step/waitFor(_:)`` waits for it.
    public final class Gate: @unchecked Sendable {
        // @unchecked: `isOpen` and `waiters` are guarded by `lock`.
        private let lock = NSLock()
        private var isOpen = false
        private var waiters: [@Sendable () -> Void] = []

        /// A closed gate.
        public init() {}

        /// Opens the gate: what waits for it carries on. Opening it again does nothing.
        public func open() {
            let released = lock.withLock { () -> [@Sendable () -> Void] in
                guard !isOpen else { return [] }
                isOpen = true
                defer { waiters = [] }
                return waiters
            }
            for waiter in released { waiter() }
        }

        /// Calls `body` once the gate is open (at once, on this thread, if it is).
        func whenOpen(_ body: @escaping @Sendable () -> Void) {
            let openNow = lock.withLock { () -> Bool in
                if !isOpen { waiters.append(body) }
                return isOpen
            }
            if openNow { body() }
        }
    }

    /// Chooses the steps that answer a request.
    public typealias Handler = @Sendable (Request) -> [Step]

    /// The address it listens on.
    public let host: String
    /// The port it listens on.
    public let port: Int
    private let channel: any Channel
    let state: ServerState

    private init(host: String, port: Int, channel: any Channel, state: ServerState) {
        self.host = host
        self.port = port
        self.channel = channel
        self.state = state
    }

    /// Starts a server on an ephemeral port of `host` (a loopback address; default 127.0.0.1).
    public static func start(host: String = "127.0.0.1", handler: @escaping Handler) async throws -> LoopbackHTTPServer {
        let state = ServerState(handler: handler)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectionHandler(state: state))
                }
            }
            .bind(host: host, port: 0).get()
        guard let port = channel.localAddress?.port else { throw ServerError.noPort }
        return LoopbackHTTPServer(host: host, port: port, channel: channel, state: state)
    }

    /// `http://HOST:PORT` followed by `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://\(host):\(port)\(path.hasPrefix("/") ? path : "/" + path)")!
    }

    /// Every request so far, in arrival order.
    public var requests: [Request] { state.snapshot().requests }

    /// Requests so far whose path (without query) is `path`.
    public func requestCount(path: String) -> Int {
        state.snapshot().requests.filter { $0.path.split(separator: "?").first.map(String.init) == path }.count
    }

    /// Connections open now.
    public var openConnections: Int { state.snapshot().open }

    /// Connections accepted so far.
    public var acceptedConnections: Int { state.snapshot().accepted }

    /// Waits until `condition` holds for the server's counts, or `timeout` passes. The default is
    /// long (five minutes) because it is a hang detector: in the whole suite, synchronous tests can
    /// hold Swift's cooperative pool, and with it the clients that make the counts change, for a
    /// minute or more.
    /// - Returns: whether the condition held.
    @discardableResult
    public func wait(timeout: Duration = .seconds(300), until condition: @escaping @Sendable (_ openConnections: Int, _ requests: Int) -> Bool) async
        -> Bool
    {
        await state.wait(timeout: timeout, until: condition)
    }

    /// Closes the listening socket and every open connection.
    public func stop() {
        channel.close(promise: nil)
        state.closeAll()
    }

    enum ServerError: Error { case noPort }
}

extension Array where Element == LoopbackHTTPServer.Step {
    /// A whole response with a Content-Length matching `body` (or `contentLength` to lie).
    public static func response(
        status: Int = 200, reason: String? = nil, headers: [(String, String)] = [],
        body: [UInt8] = [], contentLength: Int? = nil
    ) -> Self {
        [.send(Element.head(status: status, reason: reason, headers: headers + [("Content-Length", String(contentLength ?? body.count))]) + body)]
    }
}

extension LoopbackHTTPServer.Step {
    /// A status line and header fields, ending with the blank line.
    public static func head(status: Int, reason: String? = nil, headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason ?? defaultReason(status))\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// One chunk of a chunked body.
    public static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
    }

    private static func defaultReason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

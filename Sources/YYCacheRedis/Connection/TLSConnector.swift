import NIOCore

#if RedisTLS
import NIOSSL
import NIOTLS
import YYDispatch

/// Puts TLS on the connections to `rediss://` nodes: one per client, so that the trust store and
/// certificates of ``RedisConfiguration/tls`` are loaded once, on the first TLS connection.
final class TLSConnector: Sendable {
    /// Whether this build can speak TLS at all (the `RedisTLS` trait).
    static let isAvailable = true

    private let configuration: TLSConfiguration
    /// Made on first use: loading the system's trust roots takes milliseconds, and a client whose
    /// TLS nodes are never asked for should not pay them.
    private let context = Locked<Result<NIOSSLContext, any Error>?>(nil)

    private init(configuration: TLSConfiguration) {
        self.configuration = configuration
    }

    /// The connector for a client of `configuration`, or `nil` when none of its nodes uses TLS.
    /// In a cluster, the nodes the map names use TLS when the seeds do.
    static func forClient(of configuration: RedisConfiguration) -> TLSConnector? {
        configuration.nodes.contains(where: \.usesTLS) ? TLSConnector(configuration: configuration.tls) : nil
    }

    /// Adds TLS in front of `channel`'s pipeline, for a server reached as `host`, and returns the
    /// end of the handshake: it fails with the handshake's error, when the connection closes
    /// first, or after `timeout`.
    ///
    /// A host name goes out for SNI and is what the certificate must name; an IP address is not
    /// sent (SNI forbids it), and the certificate must name the address connected to instead.
    func addHandlers(to channel: any Channel, host: String, timeout: Duration) throws -> EventLoopFuture<Void> {
        let context = try self.context.withLock { context in
            if context == nil { context = Result { try NIOSSLContext(configuration: configuration) } }
            return try context!.get()
        }
        let isIPAddress = (try? SocketAddress(ipAddress: host, port: 0)) != nil
        let handshake = channel.eventLoop.makePromise(of: Void.self)
        try channel.pipeline.syncOperations.addHandlers(
            NIOSSLClientHandler(context: context, serverHostname: isIPAddress ? nil : host),
            HandshakeWatch(handshake, timeout: timeout))
        return handshake.futureResult
    }
}

/// Completes a promise when the TLS handshake ends, then leaves the pipeline (so that replies do
/// not pass through it); fails it if the handshake fails, the connection closes or time runs out.
private final class HandshakeWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private struct TimedOut: Error, CustomStringConvertible {
        let timeout: Duration
        var description: String { "no TLS handshake within \(timeout)" }
    }

    private struct ClosedFirst: Error, CustomStringConvertible {
        var description: String { "the server closed the connection during the TLS handshake" }
    }

    private let promise: EventLoopPromise<Void>
    private let timeout: Duration
    private var timer: Scheduled<Void>?
    private var isDone = false

    init(_ promise: EventLoopPromise<Void>, timeout: Duration) {
        self.promise = promise
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) {
            let (watch, context) = bound.value
            watch.finish(.failure(TimedOut(timeout: watch.timeout)))
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            finish(.success(()))
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(ClosedFirst()))
        context.fireChannelInactive()
    }

    /// Taken out of a pipeline before the handshake ended (one torn down): the promise must not
    /// be left unfulfilled.
    func handlerRemoved(context: ChannelHandlerContext) {
        finish(.failure(ClosedFirst()))
    }

    /// The first outcome wins; the promise is completed once.
    private func finish(_ outcome: Result<Void, any Error>) {
        guard !isDone else { return }
        isDone = true
        timer?.cancel()
        promise.completeWith(outcome)
    }
}
#else
/// Without the `RedisTLS` trait there is no TLS: a type with no values, so that a client's
/// `TLSConnector?` is always `nil`, and `rediss://` URLs are refused.
enum TLSConnector: Sendable {
    /// Whether this build can speak TLS at all (the `RedisTLS` trait).
    static let isAvailable = false

    /// Always `nil`: this build has no TLS.
    static func forClient(of configuration: RedisConfiguration) -> TLSConnector? { nil }

    /// Never called: there is no connector to call it on.
    func addHandlers(to channel: any Channel, host: String, timeout: Duration) throws -> EventLoopFuture<Void> {
        switch self {}
    }
}
#endif

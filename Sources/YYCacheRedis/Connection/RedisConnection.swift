import Foundation
import NIOCore
import NIOPosix
import YYDispatch

/// One TCP connection to a Redis server, logged in and on the right database, on which any number
/// of commands may be in flight at once.
final class RedisConnection: Sendable {
    private let channel: any Channel
    private let node: String

    /// Why connecting failed, in the system's words ("Connection refused (errno 111)") where
    /// NIO's are hard to read ("Connection errors: SingleConnectionFailure(target: …, error:
    /// connection reset (error set): Connection refused) (errno: 111))").
    private static func reason(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError, error.connectionErrors.count == 1 {
            return reason(error.connectionErrors[0].error)
        }
        if let error = error as? IOError { return "\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))" }
        return "\(error)"
    }

    private init(channel: any Channel, node: String) {
        self.channel = channel
        self.node = node
    }

    /// Whether the connection is still open.
    var isActive: Bool { channel.isActive }

    /// The event loop whose thread the connection's I/O runs on.
    var eventLoop: any EventLoop { channel.eventLoop }

    /// Connects to `address` (through `tls` when the address uses TLS), then sends `AUTH` and
    /// `SELECT` when the address asks for them.
    static func connect(
        to address: RedisNodeAddress,
        tls: TLSConnector?,
        timeout: Duration,
        maximumReplySize: Int,
        group: any EventLoopGroup
    ) async throws(RedisError) -> RedisConnection {
        let node = address.description
        let parser = RESPParser(maximumBulkLength: maximumReplySize)
        let channel: any Channel
        // Set while the channel is set up when the address uses TLS.
        let handshake = Locked<EventLoopFuture<Void>?>(nil)
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.nanoseconds(timeout.nanoseconds))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                // Reads of up to 1 MB: a 100 KB value arrives in one or two reads, not many small ones.
                .channelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16 * 1024, maximum: 1 << 20))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if address.usesTLS {
                            guard let tls else { throw RedisError.connectionFailed(node: node, message: "this build has no TLS") }
                            let ended = try tls.addHandlers(to: channel, host: address.host, timeout: timeout)
                            handshake.withLock { $0 = ended }
                        }
                        try channel.pipeline.syncOperations.addHandlers(
                            ByteToMessageHandler(RESPReplyDecoder(parser: parser)),
                            RedisConnectionHandler(node: node)
                        )
                    }
                }
                .connect(host: address.host, port: address.port)
                .get()
        } catch {
            throw .connectionFailed(node: node, message: Self.reason(error))
        }
        if let ended = handshake.withLock({ $0 }) {
            do {
                try await ended.get()
            } catch {
                channel.close(promise: nil)
                throw .connectionFailed(node: node, message: "TLS handshake failed: \(error)")
            }
        }
        let connection = RedisConnection(channel: channel, node: node)
        do {
            try await connection.logIn(address, timeout: timeout)
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// Completed once the connection has closed.
    var closeFuture: EventLoopFuture<Void> { channel.closeFuture }

    /// Sends `command` and waits for its reply, at most `timeout`. A `-ERR` reply throws
    /// ``RedisError/server(node:message:)``.
    func send(_ command: RedisCommand, timeout: Duration) async throws(RedisError) -> RESPValue {
        let promise = channel.eventLoop.makePromise(of: RESPValue.self)
        let request = RedisRequest(command: command, promise: promise, timeout: timeout)
        if channel.eventLoop.inEventLoop {
            Self.write(request, on: channel, node: node)
        } else {
            // What `writeAndFlush` would do from another thread anyway: one job on the loop.
            channel.eventLoop.execute { [channel, node] in Self.write(request, on: channel, node: node) }
        }
        return try await reply(of: promise)
    }

    /// Sends `ASKING` and then `command` (a Redis Cluster `ASK` redirection), with nothing of
    /// other callers between them: `ASKING` holds for the next command on the connection only.
    func sendAsking(_ command: RedisCommand, timeout: Duration) async throws(RedisError) -> RESPValue {
        let asking = RedisRequest(command: RedisCommand("ASKING"), promise: channel.eventLoop.makePromise(), timeout: timeout)
        let request = RedisRequest(command: command, promise: channel.eventLoop.makePromise(), timeout: timeout)
        // Both writes in one turn of the event loop, where no other write can come between.
        channel.eventLoop.execute { [channel, node] in
            Self.write(asking, flushing: false, on: channel, node: node)
            Self.write(request, on: channel, node: node)
        }
        _ = try await reply(of: asking.promise)
        return try await reply(of: request.promise)
    }

    /// Writes `request` (and flushes, unless told not to), on `channel`'s event loop, unless the
    /// channel has closed: then the request fails.
    ///
    /// A closed channel's handlers are gone, so a request written to it would never reach the one
    /// that completes its promise, and its caller would wait for ever (a server that hangs up just
    /// after the pool handed the connection out: one that refuses a TLS client's certificate does
    /// so every time). On the loop, a channel still active has not begun to close: its handlers
    /// are there until the loop has run the close.
    private static func write(_ request: RedisRequest, flushing: Bool = true, on channel: any Channel, node: String) {
        channel.eventLoop.assertInEventLoop()
        guard channel.isActive else {
            request.promise.fail(RedisError.connectionClosed(node: node))
            return
        }
        if flushing {
            channel.writeAndFlush(request, promise: nil)
        } else {
            channel.write(request, promise: nil)
        }
    }

    private func reply(of promise: EventLoopPromise<RESPValue>) async throws(RedisError) -> RESPValue {
        let reply: RESPValue
        do {
            reply = try await promise.futureResult.get()
        } catch let error as RedisError {
            throw error
        } catch {
            throw .connectionClosed(node: node)
        }
        if case .error(let message) = reply { throw .server(node: node, message: message) }
        return reply
    }

    /// Closes the connection; requests in flight fail with ``RedisError/connectionClosed(node:)``.
    func close() {
        channel.close(promise: nil)
    }

    private func logIn(_ address: RedisNodeAddress, timeout: Duration) async throws(RedisError) {
        do {
            if let password = address.password {
                let arguments = address.user.map { [$0, password] } ?? [password]
                _ = try await send(RedisCommand("AUTH", arguments), timeout: timeout)
            }
            if address.database != 0 {
                _ = try await send(RedisCommand("SELECT", [String(address.database)]), timeout: timeout)
            }
        } catch .server(_, let message) {
            throw .authenticationFailed(node: node, message: message)
        }
    }
}

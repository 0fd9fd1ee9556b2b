import NIOCore

/// One request on the wire: its bytes, the promise its reply completes, and how long it may wait.
struct RedisRequest: Sendable {
    var command: RedisCommand
    var promise: EventLoopPromise<RESPValue>
    var timeout: Duration
}

/// Pairs replies with requests in order (RESP answers a connection's commands in the order they
/// were sent, so many may be in flight: pipelining), and times requests out.
///
/// A request that times out closes the connection: the replies still owed on it can no longer be
/// trusted to arrive, and every request waiting on it fails at once rather than one by one.
final class RedisConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = RESPValue
    typealias OutboundIn = RedisRequest
    typealias OutboundOut = ByteBuffer

    private struct Waiting {
        var promise: EventLoopPromise<RESPValue>
        var deadline: Scheduled<Void>?
    }

    private let node: String
    private var waiting = CircularBuffer<Waiting>()
    /// Requests written so far; numbers them, so that a timer knows whether its request was answered.
    private var written: UInt64 = 0
    private var answered: UInt64 = 0
    private var failure: RedisError?

    init(node: String) { self.node = node }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        if let failure {
            request.promise.fail(failure)
            promise?.fail(failure)
            return
        }
        written += 1
        let number = written
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let deadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(request.timeout.nanoseconds))) {
            let (handler, context) = bound.value
            if handler.answered < number {
                handler.failAll(.timeout(node: handler.node, after: request.timeout), context: context)
            }
        }
        waiting.append(Waiting(promise: request.promise, deadline: deadline))
        let parts = request.command.parts
        for part in parts.dropLast() { context.write(wrapOutboundOut(part), promise: nil) }
        context.write(wrapOutboundOut(parts[parts.count - 1]), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let first = waiting.popFirst() else {
            // A reply nobody asked for: the stream is out of step.
            failAll(.protocolError(node: node, message: "a reply arrived with no request waiting"), context: context)
            return
        }
        answered += 1
        first.deadline?.cancel()
        first.promise.succeed(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(.connectionClosed(node: node), context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let failure: RedisError
        if let decoding = error as? RESPParser.Malformed {
            failure = .protocolError(node: node, message: decoding.description)
        } else if let redis = error as? RedisError {
            failure = redis
        } else {
            failure = .connectionClosed(node: node)
        }
        failAll(failure, context: context)
    }

    /// Fails every waiting request with `error` and closes the connection; later writes fail too.
    private func failAll(_ error: RedisError, context: ChannelHandlerContext) {
        if failure == nil { failure = error }
        let failed = waiting
        waiting.removeAll()
        answered = written
        for request in failed {
            request.deadline?.cancel()
            request.promise.fail(error)
        }
        context.close(promise: nil)
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to `0...Int64.max`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole &+ attoseconds / 1_000_000_000
    }
}

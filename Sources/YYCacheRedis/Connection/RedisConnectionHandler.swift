import NIOCore
import YYDispatch

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
///
/// One timer per connection watches the deadlines, armed for the earliest one, rather than a
/// timer scheduled and cancelled for every request (a measurable part of a one-caller round
/// trip: `Benchmarks/README.md`, "Measured design choices").
final class RedisConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = RESPValue
    typealias OutboundIn = RedisRequest
    typealias OutboundOut = ByteBuffer

    private struct Waiting {
        var promise: EventLoopPromise<RESPValue>
        var deadline: NIODeadline
        var timeout: Duration
    }

    private let node: String
    private var waiting = CircularBuffer<Waiting>()
    /// The deadline timer, when one is armed, and the deadline it is armed for.
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    private var failure: RedisError?

    init(node: String) { self.node = node }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        if let failure {
            request.promise.fail(failure)
            promise?.fail(failure)
            return
        }
        let deadline = NIODeadline.now() + .nanoseconds(request.timeout.nanoseconds)
        waiting.append(Waiting(promise: request.promise, deadline: deadline, timeout: request.timeout))
        // Requests usually share one timeout, so a later request has a later deadline and the
        // armed timer already covers it.
        if timer.map({ deadline < $0.deadline }) ?? true { armTimer(for: deadline, context: context) }
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
        // The timer stays armed: when it fires it finds the requests still waiting, if any.
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

    private func armTimer(for deadline: NIODeadline, context: ChannelHandlerContext) {
        timer?.task.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.timerFired(context: context)
        }
        timer = (task, deadline)
    }

    /// Fails everything if the waiting request with the earliest deadline is past it; otherwise
    /// waits for that deadline.
    private func timerFired(context: ChannelHandlerContext) {
        timer = nil
        guard let earliest = waiting.min(by: { $0.deadline < $1.deadline }) else { return }
        if earliest.deadline <= NIODeadline.now() {
            failAll(.timeout(node: node, after: earliest.timeout), context: context)
        } else {
            armTimer(for: earliest.deadline, context: context)
        }
    }

    /// Fails every waiting request with `error` and closes the connection; later writes fail too.
    private func failAll(_ error: RedisError, context: ChannelHandlerContext) {
        if failure == nil { failure = error }
        timer?.task.cancel()
        timer = nil
        let failed = waiting
        waiting.removeAll()
        for request in failed { request.promise.fail(error) }
        context.close(promise: nil)
    }
}

import NIOCore
import NIOPosix

/// Reads request heads from one connection and plays the handler's steps for each.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let state: ServerState
    private var pending: [UInt8] = []
    private var busy = false
    private var stalled = false

    init(state: ServerState) {
        self.state = state
    }

    func channelActive(context: ChannelHandlerContext) {
        state.opened(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        pending += buffer.readBytes(length: buffer.readableBytes) ?? []
        serveNext(context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Answers the next complete request head, if one has arrived and no answer is in progress.
    private func serveNext(context: ChannelHandlerContext) {
        guard !busy, !stalled, let end = headEnd() else { return }
        let head = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end + 4)
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let request = LoopbackHTTPServer.Request(
            method: requestLine.first.map(String.init) ?? "",
            path: requestLine.count > 1 ? String(requestLine[1]) : "/",
            headers: headers)
        state.received(request)
        busy = true
        play(state.handler(request)[...], context: context)
    }

    private func headEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for index in 0...(pending.count - 4)
        where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13 && pending[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func play(_ steps: ArraySlice<LoopbackHTTPServer.Step>, context: ChannelHandlerContext) {
        guard let step = steps.first else {
            busy = false
            serveNext(context: context)
            return
        }
        let rest = steps.dropFirst()
        let loop = context.eventLoop.assumeIsolated()
        switch step {
        case .send(let bytes):
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes))).assumeIsolated().whenComplete { result in
                if case .success = result { self.play(rest, context: context) }
            }
        case .waitFor(let gate):
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            let eventLoop = context.eventLoop
            gate.whenOpen {
                eventLoop.execute { bound.value.handler.play(rest, context: bound.value.context) }
            }
        case .pause(let duration):
            let (seconds, attoseconds) = duration.components
            loop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
                self.play(rest, context: context)
            }
        case .close:
            context.close(promise: nil)
        case .reset:
            // SO_LINGER with a zero timeout turns close() into a TCP reset.
            if let provider = context.channel as? any SocketOptionProvider {
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        case .stall:
            stalled = true
        case .sendForever(let bytes):
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes))).assumeIsolated().whenComplete { result in
                if case .success = result { self.play(steps, context: context) }
            }
        }
    }
}

import NIOCore
import NIOPosix

/// A loopback server that answers whatever is sent to it with fixed bytes, then closes the
/// connection or keeps it open, or never answers: the broken servers a client must survive.
final class FakeRedisServer: Sendable {
    enum Behaviour: Sendable {
        /// Writes `bytes` after the first request, then closes when `close` is set.
        case reply(String, close: Bool)
        /// Reads and never writes.
        case silent
    }

    private let channel: any Channel
    let port: Int

    init(_ behaviour: Behaviour) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Responder(behaviour: behaviour))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        port = channel.localAddress!.port!
    }

    var url: String { "redis://127.0.0.1:\(port)" }

    func close() async {
        try? await channel.close()
    }

    private final class Responder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let behaviour: Behaviour
        var answered = false

        init(behaviour: Behaviour) { self.behaviour = behaviour }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered, case .reply(let text, let close) = behaviour else { return }
            answered = true
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
            if close { context.close(promise: nil) }
        }
    }
}

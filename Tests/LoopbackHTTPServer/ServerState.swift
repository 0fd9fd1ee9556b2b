import Foundation
import NIOCore

/// What the server's connections share: the handler, the requests seen, the open channels and
/// the tasks waiting for a count to change.
final class ServerState: @unchecked Sendable {
    // @unchecked: every stored property below is guarded by `lock`.
    let handler: LoopbackHTTPServer.Handler
    private let lock = NSLock()
    private var requests: [LoopbackHTTPServer.Request] = []
    private var channels: [ObjectIdentifier: any Channel] = [:]
    private var accepted = 0
    private var waiters: [UUID: (condition: @Sendable (Int, Int) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = [:]

    init(handler: @escaping LoopbackHTTPServer.Handler) {
        self.handler = handler
    }

    func snapshot() -> (requests: [LoopbackHTTPServer.Request], open: Int, accepted: Int) {
        lock.withLock { (requests, channels.count, accepted) }
    }

    func opened(_ channel: any Channel) {
        changing {
            channels[ObjectIdentifier(channel)] = channel; accepted += 1
        }
    }

    func closed(_ channel: any Channel) {
        changing { channels[ObjectIdentifier(channel)] = nil }
    }

    func received(_ request: LoopbackHTTPServer.Request) {
        changing { requests.append(request) }
    }

    func closeAll() {
        let open = lock.withLock { Array(channels.values) }
        for channel in open { channel.close(promise: nil) }
    }

    func wait(timeout: Duration, until condition: @escaping @Sendable (Int, Int) -> Bool) async -> Bool {
        let id = UUID()
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            resume(id, with: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let holds = lock.withLock { () -> Bool in
                if condition(channels.count, requests.count) { return true }
                waiters[id] = (condition, continuation)
                return false
            }
            if holds { continuation.resume(returning: true) }
        }
    }

    private func resume(_ id: UUID, with value: Bool) {
        let waiter = lock.withLock { waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: value)
    }

    private func changing(_ change: () -> Void) {
        let ready = lock.withLock { () -> [CheckedContinuation<Bool, Never>] in
            change()
            let met = waiters.filter { $0.value.condition(channels.count, requests.count) }
            for id in met.keys { waiters[id] = nil }
            return met.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
    }
}

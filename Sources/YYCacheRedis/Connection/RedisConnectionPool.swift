import NIOCore
import YYDispatch

/// A node's connections: a fixed number, opened when first needed, handed out in turn, and opened
/// again when one has closed. Callers share connections (pipelining) rather than waiting for one.
final class RedisConnectionPool: Sendable {
    private enum Slot: Sendable {
        case empty
        case connecting(Task<Result<RedisConnection, RedisError>, Never>)
        case ready(RedisConnection)
    }

    private struct State: Sendable {
        var slots: [Slot]
        var next = 0
        var closed = false
    }

    private let address: RedisNodeAddress
    private let connectTimeout: Duration
    private let maximumReplySize: Int
    private let group: any EventLoopGroup
    private let state: Locked<State>

    init(address: RedisNodeAddress, size: Int, connectTimeout: Duration, maximumReplySize: Int, group: any EventLoopGroup) {
        precondition(size > 0, "a pool holds at least one connection")
        self.address = address
        self.connectTimeout = connectTimeout
        self.maximumReplySize = maximumReplySize
        self.group = group
        state = Locked(State(slots: Array(repeating: .empty, count: size)))
    }

    /// The next connection in turn, opening it if it is not open.
    func connection() async throws(RedisError) -> RedisConnection {
        let picked = state.withLock { state -> (Int, Slot)? in
            if state.closed { return nil }
            let index = state.next
            state.next = (state.next + 1) % state.slots.count
            switch state.slots[index] {
            case .ready(let connection) where connection.isActive:
                return (index, .ready(connection))
            case .connecting(let task):
                return (index, .connecting(task))
            case .ready, .empty:
                let task = Task { [address, connectTimeout, maximumReplySize, group] () -> Result<RedisConnection, RedisError> in
                    do throws(RedisError) {
                        return .success(try await RedisConnection.connect(
                            to: address, timeout: connectTimeout, maximumReplySize: maximumReplySize, group: group))
                    } catch {
                        return .failure(error)
                    }
                }
                state.slots[index] = .connecting(task)
                return (index, .connecting(task))
            }
        }
        guard let (index, slot) = picked else { throw .connectionClosed(node: address.description) }
        guard case .connecting(let task) = slot else {
            if case .ready(let connection) = slot { return connection }
            preconditionFailure("unreachable: a slot is handed out ready or connecting")
        }
        let result = await task.value
        let closeNow = state.withLock { state -> Bool in
            // Only the task that is still in the slot may settle it.
            guard case .connecting(let current) = state.slots[index], current == task else { return state.closed }
            switch result {
            case .success(let connection): state.slots[index] = state.closed ? .empty : .ready(connection)
            case .failure: state.slots[index] = .empty
            }
            return state.closed
        }
        let connection = try result.get()
        if closeNow {
            connection.close()
            throw .connectionClosed(node: address.description)
        }
        return connection
    }

    /// Closes every connection for good: later calls throw, and connections still being opened are
    /// closed as soon as they open.
    func closeAll() {
        let open = state.withLock { state -> [RedisConnection] in
            state.closed = true
            let open = state.slots.compactMap { slot -> RedisConnection? in
                if case .ready(let connection) = slot { return connection }
                return nil
            }
            state.slots = Array(repeating: .empty, count: state.slots.count)
            return open
        }
        for connection in open { connection.close() }
    }
}

import NIOCore
import NIOPosix
import YYDispatch

/// A node's connections: a fixed number, opened when first needed, handed out in turn, and opened
/// again when one has closed. Callers share connections (pipelining) rather than waiting for one.
///
/// Slot `i` opens on the `i`-th event loop from the client's home loop (unless its caller runs on
/// a loop of the group: then on that one), so a one-connection pool lives on the loop of the
/// client's ``RedisClient/taskExecutor``, and larger pools spread over the loops.
final class RedisConnectionPool: Sendable {
    private typealias ConnectTask = Task<Result<RedisConnection, RedisError>, Never>

    private enum Slot: Sendable {
        case empty
        case connecting(ConnectTask)
        case ready(RedisConnection)
    }

    /// What `connection()` found for its caller.
    private enum Pick {
        case closed
        case ready(RedisConnection)
        case connecting(slot: Int, task: ConnectTask)
    }

    private struct State: Sendable {
        var slots: [Slot]
        var next = 0
        var closed = false

        func readyConnection(on loop: any EventLoop) -> RedisConnection? {
            for case .ready(let connection) in slots where connection.eventLoop === loop && connection.isActive {
                return connection
            }
            return nil
        }
    }

    private let address: RedisNodeAddress
    private let tls: TLSConnector?
    private let connectTimeout: Duration
    private let maximumReplySize: Int
    /// The group's loops: where connections open, and for telling whether a caller runs on one.
    private let loops: [any EventLoop]
    /// Where in `loops` slot 0 opens.
    private let homeIndex: Int
    private let state: Locked<State>

    init(
        address: RedisNodeAddress, tls: TLSConnector?, size: Int, connectTimeout: Duration, maximumReplySize: Int,
        group: any EventLoopGroup, home: any EventLoop
    ) {
        precondition(size > 0, "a pool holds at least one connection")
        self.address = address
        self.tls = tls
        self.connectTimeout = connectTimeout
        self.maximumReplySize = maximumReplySize
        loops = Array(group.makeIterator())
        homeIndex = loops.firstIndex { $0 === home } ?? 0
        state = Locked(State(slots: Array(repeating: .empty, count: size)))
    }

    /// The next connection in turn, opening it if it is not open. A caller running on an event
    /// loop's thread gets an open connection of that loop if there is one, and a connection it
    /// opens is opened on that loop: its requests then never leave the thread.
    func connection() async throws(RedisError) -> RedisConnection {
        // Only a loop of the client's group: connections opened on another group's loops would
        // close when their owner shuts that group down.
        let currentLoop = MultiThreadedEventLoopGroup.currentEventLoop.flatMap { current in
            loops.contains { $0 === current } ? current : nil
        }
        let pick = state.withLock { state -> Pick in
            if state.closed { return .closed }
            if let currentLoop, let local = state.readyConnection(on: currentLoop) { return .ready(local) }
            let index = state.next
            state.next = (state.next + 1) % state.slots.count
            switch state.slots[index] {
            case .ready(let connection) where connection.isActive:
                return .ready(connection)
            case .connecting(let task):
                return .connecting(slot: index, task: task)
            case .ready, .empty:
                let task = connect(on: currentLoop ?? loops[(homeIndex + index) % loops.count])
                state.slots[index] = .connecting(task)
                return .connecting(slot: index, task: task)
            }
        }
        switch pick {
        case .closed: throw .connectionClosed(node: address.description)
        case .ready(let connection): return connection
        case .connecting(let index, let task): return try await settle(slot: index, with: task)
        }
    }

    private func connect(on group: any EventLoopGroup) -> ConnectTask {
        Task { [address, tls, connectTimeout, maximumReplySize] in
            do throws(RedisError) {
                return .success(
                    try await RedisConnection.connect(
                        to: address, tls: tls, timeout: connectTimeout, maximumReplySize: maximumReplySize, group: group))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Waits for the connection being opened in slot `index`, and puts it (or the slot's emptiness)
    /// in place.
    private func settle(slot index: Int, with task: ConnectTask) async throws(RedisError) -> RedisConnection {
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

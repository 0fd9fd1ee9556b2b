import Foundation

/// A TCP connection to a loopback port, driven byte by byte, for what an HTTP client library
/// would not do: a request head sent in pieces, a connection left idle. Reads block a thread of
/// their own, never one of the cooperative pool's, where the server's handlers run.
public final class RawConnection: Sendable {
    private let socket: Int32

    /// Connects to 127.0.0.1:`port`.
    ///
    /// - Throws: ``RawConnectionError/system(_:)`` with `errno` (`ECONNREFUSED` when nothing listens).
    public init(port: Int) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw RawConnectionError.system(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: every stored property is set, so deinit runs even when init throws, and
        // a second close could shut a descriptor that another thread (NIO's) has been given since.
        guard status == 0 else { throw RawConnectionError.system(errno) }
    }

    deinit {
        if socket >= 0 { close(socket) }
    }

    /// Closes the connection now.
    public func shutdown() { _ = Foundation.shutdown(socket, Int32(SHUT_RDWR)) }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(socket, $0.baseAddress, $0.count) }) == bytes.count else {
            throw RawConnectionError.system(errno)
        }
    }

    /// What the peer sends before it closes the connection, `enough` holds for what arrived, or
    /// `timeout` passes: the bytes, and whether the connection was closed.
    public func read(timeout: Duration, until enough: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }) async throws
        -> (bytes: [UInt8], closed: Bool)
    {
        try await offThePool { self.readBlocking(timeout: timeout, until: enough) }
    }

    private func readBlocking(timeout: Duration, until enough: ([UInt8]) -> Bool) -> (bytes: [UInt8], closed: Bool) {
        let end = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < end && !enough(received) {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let left = end - .now
            let milliseconds = Int32(clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (received, true) }
            received += buffer[0..<count]
        }
        return (received, false)
    }
}

/// Why a ``RawConnection`` failed.
public enum RawConnectionError: Error, Equatable {
    /// A system call failed with this `errno`.
    case system(Int32)
}

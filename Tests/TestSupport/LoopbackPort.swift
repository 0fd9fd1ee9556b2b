import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loopback ports for tests: one to start a server on, or one that refuses every connection.
public enum LoopbackPort {
    /// A port no one listens on now: bind port 0 on loopback, read the port, close.
    ///
    /// Good for starting a server on; not for a test that needs the port to stay refused, since
    /// the kernel may hand it to another test's server as soon as it is closed. Use ``refusing()``.
    public static func unused() throws -> Int {
        let socket = try BoundSocket()
        close(socket.descriptor)
        return socket.port
    }

    /// A port that refuses connections for as long as the returned value lives.
    ///
    /// Its socket is bound but never listens, so the kernel answers a connection with a reset
    /// (`ECONNREFUSED`) and gives the port to no one else. A port from ``unused()`` was taken by a
    /// test server running in parallel once in CI, and the "refused" test saw a connection that
    /// opened and closed.
    public static func refusing() throws -> RefusingPort {
        RefusingPort(try BoundSocket())
    }
}

/// A loopback port held bound without listening; see ``LoopbackPort/refusing()``.
public final class RefusingPort: Sendable {
    /// The port number.
    public let port: Int
    private let descriptor: Int32

    fileprivate init(_ socket: BoundSocket) {
        port = socket.port
        descriptor = socket.descriptor
    }

    deinit { close(descriptor) }
}

/// A TCP socket bound to an ephemeral port on 127.0.0.1; the caller owns the descriptor.
private struct BoundSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LoopbackPortError(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let failure = errno
            close(descriptor)
            throw LoopbackPortError(description: "bind() failed: errno \(failure)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let failure = errno
            close(descriptor)
            throw LoopbackPortError(description: "getsockname() failed: errno \(failure)")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why no free port could be found.
public struct LoopbackPortError: Error, CustomStringConvertible {
    public let description: String
}

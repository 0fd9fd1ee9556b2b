import Foundation

/// Turns a source's host name into the IP addresses to connect to. The service checks each
/// against its ``SourceAddressPolicy`` before it connects; tests use a resolver that answers with
/// addresses of their choosing.
public protocol SourceAddressResolver: Sendable {
    /// Every address `host` resolves to, as text (`93.184.216.34`, `2606:2800::1`).
    func addresses(forHost host: String) async throws -> [String]
}

/// The system's resolver (`getaddrinfo`), run on a thread of its own.
public struct SystemAddressResolver: SourceAddressResolver {
    /// The resolver.
    public init() {}

    public func addresses(forHost host: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.lookUp(host) })
            }
        }
    }

    /// `getaddrinfo` for TCP, every family; the list is freed before returning.
    private static func lookUp(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw ResolutionError(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let text = numericHost(current.pointee.ai_addr, length: current.pointee.ai_addrlen), !addresses.contains(text) {
                addresses.append(text)
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// The numeric text of a socket address (`getnameinfo` with NI_NUMERICHOST).
    private static func numericHost(_ address: UnsafeMutablePointer<sockaddr>?, length: socklen_t) -> String? {
        guard let address else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A host name that did not resolve.
struct ResolutionError: Error, CustomStringConvertible {
    let host: String
    let reason: String
    var description: String { "cannot resolve host \(host): \(reason)" }
}

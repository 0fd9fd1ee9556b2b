import Foundation

/// Which addresses the service may connect to for a source: never loopback, link-local, private
/// (RFC 1918, fc00::/7), CGNAT (100.64/10), multicast, reserved or unspecified ones, nor IPv4
/// addresses of those kinds hidden in IPv6 forms (mapped, compatible, NAT64, 6to4, Teredo,
/// ISATAP), unless the configuration allows loopback or private ones.
///
/// The checks run on resolved addresses when connecting, for the first URL and every redirect,
/// so a name that resolves to an internal address (DNS rebinding included) gets nowhere.
public struct SourceAddressPolicy: Sendable, Equatable {
    /// Whether loopback addresses (127/8, ::1) may be used: for tests and sources on the same host.
    public var allowsLoopback = false
    /// Whether private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) may be used:
    /// for intranets.
    public var allowsPrivate = false
    /// Networks refused whatever the two switches say, as `address/prefix` (`10.1.0.0/16`,
    /// `127.0.0.2/32`).
    public var deniedNetworks: [String] = []

    /// The default: public addresses only.
    public init(allowsLoopback: Bool = false, allowsPrivate: Bool = false, deniedNetworks: [String] = []) {
        self.allowsLoopback = allowsLoopback
        self.allowsPrivate = allowsPrivate
        self.deniedNetworks = deniedNetworks
    }

    /// Why `address` (textual IPv4 or IPv6) is refused, or `nil` when it may be used. Text that is
    /// no IP address is refused too.
    public func refusal(for address: String) -> String? {
        guard let bytes = ipAddressBytes(address) else { return "'\(address)' is not an IP address" }
        for network in deniedNetworks {
            guard let denied = IPNetwork(network) else { return "denied network '\(network)' cannot be read" }
            if denied.contains(bytes) { return "\(address) is in the denied network \(network)" }
        }
        switch Self.kind(of: bytes) {
        case .public: return nil
        case .loopback: return allowsLoopback ? nil : "\(address) is a loopback address"
        case .private: return allowsPrivate ? nil : "\(address) is a private address"
        case .refused(let kind): return "\(address) is \(kind) address"
        }
    }

    /// Whether a network prefix (`address/bits`) can be read.
    public static func isValidNetwork(_ text: String) -> Bool { IPNetwork(text) != nil }

    enum Kind: Equatable {
        case `public`, loopback, `private`
        case refused(String)
    }

    /// The kind of an address, looking through IPv6 forms that carry an IPv4 address.
    static func kind(of address: [UInt8]) -> Kind {
        if address.count == 4 { return kind(ofIPv4: address) }
        if let embedded = embeddedIPv4(address) { return kind(ofIPv4: embedded) }
        let a = address
        if a.allSatisfy({ $0 == 0 }) { return .refused("the unspecified") }
        if a.dropLast().allSatisfy({ $0 == 0 }) && a[15] == 1 { return .loopback }
        if a[0] == 0xFE && a[1] & 0xC0 == 0x80 { return .refused("a link-local") }
        if a[0] == 0xFE && a[1] & 0xC0 == 0xC0 { return .refused("a site-local") }
        if a[0] & 0xFE == 0xFC { return .private }
        if a[0] == 0xFF { return .refused("a multicast") }
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8 { return .refused("a documentation") }
        if a[0] == 0x01 && a[1...7].allSatisfy({ $0 == 0 }) { return .refused("a discard-only") }
        return .public
    }

    private static func kind(ofIPv4 a: [UInt8]) -> Kind {
        switch (a[0], a[1]) {
        case (0, _): return .refused("an unspecified (0.0.0.0/8)")
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168): return .private
        case (100, 64...127): return .private  // CGNAT, 100.64/10
        case (169, 254): return .refused("a link-local")
        case (224...239, _): return .refused("a multicast")
        case (240...255, _): return .refused("a reserved or broadcast")
        case (192, 0) where a[2] == 0 || a[2] == 2: return .refused("a special-purpose")
        case (198, 18...19): return .refused("a benchmarking")
        case (198, 51) where a[2] == 100, (203, 0) where a[2] == 113: return .refused("a documentation")
        default: return .public
        }
    }

    /// The IPv4 address an IPv6 address carries: IPv4-mapped (::ffff:0:0/96), IPv4-compatible
    /// (::/96), NAT64 (64:ff9b::/96 and 64:ff9b:1::/48), 6to4 (2002::/16), Teredo (2001::/32, the
    /// client's address inverted in the last 32 bits) and ISATAP (…:0:5efe:a.b.c.d).
    static func embeddedIPv4(_ a: [UInt8]) -> [UInt8]? {
        let last4 = Array(a[12...15])
        if a[0...9].allSatisfy({ $0 == 0 }) && a[10] == 0xFF && a[11] == 0xFF { return last4 }
        if a[0...11].allSatisfy({ $0 == 0 }) && !last4.allSatisfy({ $0 == 0 }) && !(last4 == [0, 0, 0, 1]) { return last4 }
        if a[0...3] == [0x00, 0x64, 0xFF, 0x9B] && a[4...11].allSatisfy({ $0 == 0 }) { return last4 }
        if a[0...5] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return last4 }
        if a[0] == 0x20 && a[1] == 0x02 { return Array(a[2...5]) }
        if a[0...3] == [0x20, 0x01, 0x00, 0x00] { return last4.map { ~$0 } }
        if (a[8] == 0x00 || a[8] == 0x02) && a[9] == 0x00 && a[10] == 0x5E && a[11] == 0xFE { return last4 }
        return nil
    }
}

import Foundation

/// Which addresses the service may connect to for a source: public ones only, judged by IANA's
/// special-purpose registries (``SpecialPurposeAddresses``): never loopback, link-local, private
/// (RFC 1918, fc00::/7), CGNAT (100.64/10), multicast, documentation, reserved or unspecified
/// ones, nor IPv4 addresses of those kinds carried in IPv6 forms (mapped, compatible, SIIT, NAT64,
/// 6to4, Teredo, ISATAP), unless the configuration allows loopback or private ones.
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
        case .refused(let block): return "\(address) is in the \(block) block"
        }
    }

    /// Whether a network prefix (`address/bits`) can be read.
    public static func isValidNetwork(_ text: String) -> Bool { IPNetwork(text) != nil }

    enum Kind: Equatable {
        case `public`, loopback, `private`
        /// Refused: the block's name.
        case refused(String)
    }

    /// The kind of an address: by the most specific special-purpose block that holds it
    /// (``SpecialPurposeAddresses``); an IPv6 form that carries an IPv4 address (in a block of
    /// its own, or ISATAP's in an allowed prefix) by that IPv4 address.
    static func kind(of address: [UInt8]) -> Kind {
        let block = SpecialPurposeAddresses.block(holding: address)
        if let block {
            switch block.treatment {
            case .loopback: return .loopback
            case .private: return .private
            case .refused: return .refused(block.name)
            case .allowed, .carriesIPv4: break
            }
        }
        if let embedded = SpecialPurposeAddresses.embeddedIPv4(address, in: block) { return kind(of: embedded) }
        if block == nil && address.count == 16 && !SpecialPurposeAddresses.globalUnicast.contains(address) {
            return .refused("unassigned IPv6")
        }
        return .public
    }
}

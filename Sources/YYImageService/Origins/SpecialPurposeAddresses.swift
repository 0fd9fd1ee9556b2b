/// IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and the RFCs that add to
/// them), the multicast blocks, and the older forms of IPv6 that carry an IPv4 address, each with
/// what a source address in it means to the service. ``SourceAddressPolicy`` judges an address by
/// the most specific block that holds it: a block the registry marks globally reachable is
/// allowed, one that carries an IPv4 address is judged by that address, every other is refused.
/// IPv6 outside every block is allowed only inside global unicast, 2000::/3.
enum SpecialPurposeAddresses {
    /// How an address of a block is treated.
    enum Treatment: Equatable {
        /// Globally reachable: judged as any public address.
        case allowed
        /// Loopback: allowed only with ``SourceAddressPolicy/allowsLoopback``.
        case loopback
        /// Private networks: allowed only with ``SourceAddressPolicy/allowsPrivate``.
        case `private`
        /// Never a source.
        case refused
        /// Carries an IPv4 address, judged in its place.
        case carriesIPv4(IPv4Position)
    }

    /// Where an IPv6 form keeps its IPv4 address.
    enum IPv4Position: Equatable {
        /// The last 32 bits (mapped, compatible, SIIT, NAT64 with the well-known /96 prefix).
        case last32
        /// The last 32 bits, inverted (Teredo's client address).
        case last32Inverted
        /// Bits 16–47 (6to4).
        case afterFirst16
    }

    /// One block of the registries.
    struct Block {
        let network: IPNetwork
        /// The registry's name for it, as refusals say it.
        let name: String
        let treatment: Treatment

        init(_ network: String, _ name: String, _ treatment: Treatment) {
            guard let parsed = IPNetwork(network) else { preconditionFailure("unreadable block \(network)") }
            self.network = parsed
            self.name = name
            self.treatment = treatment
        }
    }

    /// The IPv4 blocks (IANA IPv4 Special-Purpose Address Registry, plus multicast).
    static let ipv4: [Block] = [
        Block("0.0.0.0/8", "\"this network\"", .refused),
        Block("10.0.0.0/8", "private-use", .private),
        Block("100.64.0.0/10", "shared (CGNAT)", .private),
        Block("127.0.0.0/8", "loopback", .loopback),
        Block("169.254.0.0/16", "link-local", .refused),
        Block("172.16.0.0/12", "private-use", .private),
        Block("192.0.0.0/24", "IETF protocol assignments", .refused),
        Block("192.0.0.9/32", "PCP anycast", .allowed),
        Block("192.0.0.10/32", "TURN anycast", .allowed),
        Block("192.0.2.0/24", "documentation (TEST-NET-1)", .refused),
        Block("192.31.196.0/24", "AS112-v4", .allowed),
        Block("192.52.193.0/24", "AMT", .allowed),
        Block("192.88.99.0/24", "deprecated 6to4 relay anycast", .refused),
        Block("192.168.0.0/16", "private-use", .private),
        Block("192.175.48.0/24", "AS112 direct delegation", .allowed),
        Block("198.18.0.0/15", "benchmarking", .refused),
        Block("198.51.100.0/24", "documentation (TEST-NET-2)", .refused),
        Block("203.0.113.0/24", "documentation (TEST-NET-3)", .refused),
        Block("224.0.0.0/4", "multicast", .refused),
        Block("240.0.0.0/4", "reserved", .refused),
        Block("255.255.255.255/32", "limited broadcast", .refused),
    ]

    /// The IPv6 blocks (IANA IPv6 Special-Purpose Address Registry, the deprecated forms that
    /// carry IPv4, site-local and multicast).
    static let ipv6: [Block] = [
        Block("::/128", "unspecified", .refused),
        Block("::1/128", "loopback", .loopback),
        Block("::/96", "IPv4-compatible", .carriesIPv4(.last32)),
        Block("::ffff:0:0/96", "IPv4-mapped", .carriesIPv4(.last32)),
        Block("::ffff:0:0:0/96", "IPv4-translated (SIIT)", .carriesIPv4(.last32)),
        Block("64:ff9b::/96", "NAT64", .carriesIPv4(.last32)),
        // Local-use translation (RFC 8215) puts the IPv4 address where its operator's prefix
        // length says: no reading of it is safe.
        Block("64:ff9b:1::/48", "local-use IPv4/IPv6 translation", .refused),
        Block("100::/64", "discard-only", .refused),
        Block("100:0:0:1::/64", "dummy IPv6 prefix", .refused),
        Block("2001::/23", "IETF protocol assignments", .refused),
        Block("2001::/32", "Teredo", .carriesIPv4(.last32Inverted)),
        Block("2001:1::1/128", "PCP anycast", .allowed),
        Block("2001:1::2/128", "TURN anycast", .allowed),
        Block("2001:1::3/128", "DNS-SD SRP anycast", .allowed),
        Block("2001:2::/48", "benchmarking", .refused),
        Block("2001:3::/32", "AMT", .allowed),
        Block("2001:4:112::/48", "AS112-v6", .allowed),
        Block("2001:10::/28", "deprecated ORCHID", .refused),
        Block("2001:20::/28", "ORCHIDv2", .allowed),
        Block("2001:30::/28", "drone remote ID tags", .allowed),
        Block("2001:db8::/32", "documentation", .refused),
        Block("2002::/16", "6to4", .carriesIPv4(.afterFirst16)),
        Block("2620:4f:8000::/48", "AS112 direct delegation", .allowed),
        Block("3fff::/20", "documentation", .refused),
        Block("5f00::/16", "segment routing SIDs", .refused),
        Block("fc00::/7", "unique-local", .private),
        Block("fe80::/10", "link-local", .refused),
        Block("fec0::/10", "site-local", .refused),
        Block("ff00::/8", "multicast", .refused),
    ]

    /// IPv6 global unicast: an IPv6 address in no block above is allowed only inside it.
    static let globalUnicast = IPNetwork("2000::/3")!

    /// The most specific block that holds `address` (4 or 16 bytes), if any.
    static func block(holding address: [UInt8]) -> Block? {
        (address.count == 4 ? ipv4 : ipv6)
            .filter { $0.network.contains(address, lookingIntoIPv6: false) }
            .max { $0.network.prefix < $1.network.prefix }
    }

    /// The IPv4 address an IPv6 address carries: by its block, or by ISATAP's interface
    /// identifier (`…:0:5efe:a.b.c.d`, in any prefix).
    static func embeddedIPv4(_ address: [UInt8]) -> [UInt8]? {
        embeddedIPv4(address, in: block(holding: address))
    }

    /// ``embeddedIPv4(_:)`` for an address whose most specific block is already known.
    static func embeddedIPv4(_ address: [UInt8], in block: Block?) -> [UInt8]? {
        guard address.count == 16 else { return nil }
        let last32 = Array(address[12...15])
        if case .carriesIPv4(let position)? = block?.treatment {
            switch position {
            case .last32: return last32
            case .last32Inverted: return last32.map { ~$0 }
            case .afterFirst16: return Array(address[2...5])
            }
        }
        if (address[8] == 0x00 || address[8] == 0x02) && address[9] == 0x00 && address[10] == 0x5E && address[11] == 0xFE {
            return last32
        }
        return nil
    }
}

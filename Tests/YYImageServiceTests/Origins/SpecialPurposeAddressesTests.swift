import Testing

@testable import YYImageService

/// The guard against IANA's special-purpose registries: one address from every block, with the
/// verdict the registry implies, written out here independently of the table in the source.
@Suite struct SpecialPurposeAddressesTests {
    /// An address and whether the default policy (public addresses only) lets it be dialled.
    static let registry: [(address: String, allowed: Bool)] = [
        // IPv4 Special-Purpose Address Registry, plus multicast.
        ("0.1.2.3", false), ("10.9.8.7", false), ("100.100.0.1", false), ("127.0.0.53", false),
        ("169.254.169.254", false), ("172.20.0.1", false), ("192.0.0.1", false), ("192.0.0.9", true),
        ("192.0.0.10", true), ("192.0.0.170", false), ("192.0.2.7", false), ("192.31.196.1", true), ("192.52.193.1", true),
        ("192.88.99.1", false), ("192.168.0.1", false), ("192.175.48.1", true), ("198.19.0.1", false),
        ("198.51.100.1", false), ("203.0.113.9", false), ("233.252.0.1", false), ("250.0.0.1", false),
        ("255.255.255.255", false),
        // IPv6 Special-Purpose Address Registry, deprecated forms, site-local and multicast.
        ("::", false), ("::1", false), ("::10.0.0.1", false), ("::8.8.8.8", true),
        ("::ffff:127.0.0.1", false), ("::ffff:8.8.8.8", true),
        ("::ffff:0:127.0.0.1", false), ("::ffff:0:10.0.0.1", false), ("::ffff:0:8.8.8.8", true),
        ("64:ff9b::192.168.1.1", false), ("64:ff9b::8.8.8.8", true), ("64:ff9b:1::8.8.8.8", false),
        ("100::1", false), ("100:0:0:1::1", false), ("2001:5::1", false),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", false),  // Teredo, client 192.0.2.45
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", true),  // Teredo, client 8.8.8.8
        ("2001:1::1", true), ("2001:1::2", true), ("2001:1::3", true), ("2001:2::1", false), ("2001:3::1", true),
        ("2001:4:112::1", true), ("2001:10::1", false), ("2001:20::1", true), ("2001:30::1", true),
        ("2001:db8::1", false), ("2002:7f00:1::1", false), ("2002:0808:0808::1", true), ("2620:4f:8000::1", true),
        ("3fff::1", false), ("5f00::1", false), ("fd00::1", false), ("fe80::1", false), ("fec0::1", false),
        ("ff02::1", false),
        // Outside every block: global unicast is public, the rest unassigned.
        ("2606:4700::1111", true), ("4000::1", false), ("8000::1", false),
        // ISATAP's interface identifier, in a public prefix.
        ("2606:4700::5efe:10.0.0.1", false), ("2606:4700::200:5efe:8.8.8.8", true), ("2001:db8::5efe:8.8.8.8", false),
    ]

    @Test(arguments: registry)
    func everySpecialPurposeBlockGetsTheRegistrysVerdict(address: String, allowed: Bool) {
        #expect((SourceAddressPolicy().refusal(for: address) == nil) == allowed, "\(address)")
    }

    @Test func everyBlockOfTheTableIsCheckedAbove() {
        let checked = Self.registry.compactMap { ipAddressBytes($0.address) }
        for block in SpecialPurposeAddresses.ipv4 + SpecialPurposeAddresses.ipv6 {
            let covered = checked.contains { address in
                SpecialPurposeAddresses.block(holding: address).map { $0.network == block.network } ?? false
            }
            #expect(covered, "no address of \(block.name) (\(block.network.address), /\(block.network.prefix)) is checked")
        }
    }

    @Test func anIPv4TranslatedAddressIsJudgedByTheIPv4ItCarries() {
        #expect(SpecialPurposeAddresses.embeddedIPv4(ipAddressBytes("::ffff:0:127.0.0.1")!) == [127, 0, 0, 1])
        #expect(SourceAddressPolicy().refusal(for: "::ffff:0:127.0.0.1") == "::ffff:0:127.0.0.1 is a loopback address")
        #expect(SourceAddressPolicy(allowsLoopback: true).refusal(for: "::ffff:0:127.0.0.1") == nil)
    }
}

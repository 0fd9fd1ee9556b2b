import Testing

@testable import YYImageService

/// The address rules, checked on the checker itself: no traffic goes anywhere.
@Suite struct SourceAddressPolicyTests {
    private let strict = SourceAddressPolicy()

    @Test(arguments: [
        "127.0.0.1", "127.255.0.9", "::1", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1", "100.64.0.1",
        "100.127.255.254", "169.254.169.254", "0.0.0.0", "::", "224.0.0.1", "239.255.255.250", "255.255.255.255",
        "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
        // IPv4 hidden in IPv6: mapped, compatible, NAT64, 6to4, Teredo (client inverted), ISATAP.
        "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::127.0.0.1", "64:ff9b::10.0.0.1", "64:ff9b:1::a9fe:a9fe", "2002:c0a8:0101::1",
        "2001:0:4136:e378:8000:63bf:3fff:fdd2", "fe80::5efe:10.0.0.1", "2001:db8::1",
    ])
    func internalAddressesAreRefusedByDefault(address: String) {
        #expect(strict.refusal(for: address) != nil, "\(address)")
    }

    @Test(arguments: ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34"])
    func publicAddressesAreAllowed(address: String) {
        #expect(strict.refusal(for: address) == nil, "\(address)")
    }

    @Test func theTeredoClientAddressIsTheLast32BitsInverted() {
        // 2001:0:…:3fff:fdd2 carries the client 192.0.2.45 (inverted: c0.00.02.2d).
        #expect(SpecialPurposeAddresses.embeddedIPv4(ipAddressBytes("2001:0:4136:e378:8000:63bf:3fff:fdd2")!) == [192, 0, 2, 45])
    }

    @Test func theSwitchesAllowLoopbackAndPrivateButNeverLinkLocalOrMulticast() {
        let loopback = SourceAddressPolicy(allowsLoopback: true)
        #expect(loopback.refusal(for: "127.0.0.1") == nil && loopback.refusal(for: "::1") == nil)
        #expect(loopback.refusal(for: "10.0.0.1") != nil)
        let privateNetworks = SourceAddressPolicy(allowsPrivate: true)
        #expect(privateNetworks.refusal(for: "10.0.0.1") == nil && privateNetworks.refusal(for: "fd00::1") == nil)
        #expect(privateNetworks.refusal(for: "100.64.1.1") == nil)
        #expect(privateNetworks.refusal(for: "127.0.0.1") != nil)
        let both = SourceAddressPolicy(allowsLoopback: true, allowsPrivate: true)
        for address in ["169.254.169.254", "fe80::1", "224.0.0.1", "0.0.0.0", "::"] {
            #expect(both.refusal(for: address) != nil, "\(address)")
        }
    }

    @Test func aDeniedNetworkIsRefusedWhateverElseAllowsItIPv6FormsIncluded() {
        let policy = SourceAddressPolicy(allowsLoopback: true, deniedNetworks: ["127.0.0.2/32"])
        #expect(policy.refusal(for: "127.0.0.1") == nil)
        #expect(policy.refusal(for: "127.0.0.2") == "127.0.0.2 is in the denied network 127.0.0.2/32")
        #expect(policy.refusal(for: "::ffff:127.0.0.2") != nil)
        #expect(SourceAddressPolicy.isValidNetwork("10.0.0.0/8") && SourceAddressPolicy.isValidNetwork("fd00::/8"))
        #expect(!SourceAddressPolicy.isValidNetwork("10.0.0.0/33") && !SourceAddressPolicy.isValidNetwork("host/8"))
    }

    @Test func textThatIsNoAddressIsRefused() {
        #expect(strict.refusal(for: "example.com") == "'example.com' is not an IP address")
    }
}

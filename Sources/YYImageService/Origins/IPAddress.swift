import Foundation

/// An address as 4 or 16 bytes, parsed by the system's `inet_pton`.
func ipAddressBytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
    return nil
}

/// `address/prefix`.
struct IPNetwork: Equatable {
    let address: [UInt8]
    let prefix: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = ipAddressBytes(parts[0]) else { return nil }
        let prefix = parts.count == 2 ? Int(parts[1]) : address.count * 8
        guard let prefix, (0...address.count * 8).contains(prefix) else { return nil }
        self.address = address
        self.prefix = prefix
    }

    /// Whether `other` is in this network. An IPv4 network also holds the IPv4 addresses that
    /// IPv6 forms carry (``SpecialPurposeAddresses/embeddedIPv4(_:)``) unless `lookingIntoIPv6`
    /// is false.
    func contains(_ other: [UInt8], lookingIntoIPv6: Bool = true) -> Bool {
        var candidate = other
        if lookingIntoIPv6, address.count == 4, other.count == 16, let embedded = SpecialPurposeAddresses.embeddedIPv4(other) {
            candidate = embedded
        }
        guard candidate.count == address.count else { return false }
        for bit in 0..<prefix {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            if candidate[bit / 8] & mask != address[bit / 8] & mask { return false }
        }
        return true
    }
}

/// SplitMix64: a small deterministic random generator, so a test or a child process can replay a
/// sequence from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state; the seed at creation.
    public var state: UInt64

    /// Creates a generator from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// FNV-1a, 64-bit: a checksum for telling whole values from torn ones in tests.
public func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}

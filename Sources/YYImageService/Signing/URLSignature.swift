import CLibCrypto
import Foundation

/// imgproxy's URL signature: HMAC-SHA256(key, salt ‖ path), the path being everything after the
/// signature segment (its leading `/` included), in URL-safe base64 without padding, optionally
/// cut to its first ``size`` bytes.
///
/// Several key/salt pairs may be configured at once, so that keys can be rotated: a URL signed with
/// any of them is accepted.
public struct URLSignature: Sendable {
    /// A key and the salt that goes with it.
    public struct KeyPair: Sendable, Equatable {
        /// The HMAC key.
        public var key: [UInt8]
        /// Bytes put before the path.
        public var salt: [UInt8]

        /// A pair of raw bytes.
        public init(key: [UInt8], salt: [UInt8]) {
            self.key = key
            self.salt = salt
        }

        /// A pair from hexadecimal text, as imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT` are written;
        /// `nil` unless both are non-empty hex of even length.
        public init?(hexKey: String, hexSalt: String) {
            guard let key = [UInt8](hex: hexKey), let salt = [UInt8](hex: hexSalt), !key.isEmpty, !salt.isEmpty else { return nil }
            self.init(key: key, salt: salt)
        }
    }

    /// The pairs accepted; the first one signs.
    public let keyPairs: [KeyPair]
    /// How many bytes of the HMAC a signature carries (1...32; default 32, the whole of it).
    public let size: Int

    /// A signer with `keyPairs`; `size` is clamped to 1...32.
    public init(keyPairs: [KeyPair], size: Int = 32) {
        self.keyPairs = keyPairs
        self.size = min(max(size, 1), 32)
    }

    /// The signature of `path` with the first pair (empty without pairs).
    public func signature(for path: String) -> String {
        guard let pair = keyPairs.first else { return "" }
        return Self.base64URL(Array(Self.hmac(pair, path: path).prefix(size)))
    }

    /// Whether `signature` signs `path` with one of the pairs. Every pair is checked, each in
    /// constant time, so the time taken says nothing about how much of a signature was right.
    public func isValid(_ signature: String, for path: String) -> Bool {
        guard let given = [UInt8](base64URL: signature), given.count == size else { return false }
        var valid = false
        for pair in keyPairs {
            let expected = Array(Self.hmac(pair, path: path).prefix(size))
            valid = Self.constantTimeEqual(given, expected) || valid
        }
        return valid
    }

    /// HMAC-SHA256 of salt ‖ path under the pair's key.
    static func hmac(_ pair: KeyPair, path: String) -> [UInt8] {
        HMACSHA256.authenticationCode(key: pair.key, message: pair.salt + Array(path.utf8))
    }

    /// Whether two byte strings of equal length are equal, taking the same time wherever they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        // OpenSSL's CRYPTO_memcmp reads every byte whatever it finds.
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, a.count) == 0 }
        }
    }

    /// URL-safe base64 without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension [UInt8] {
    /// Bytes from hexadecimal text; `nil` for odd lengths or other characters.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self = bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Bytes from URL-safe base64 (padding optional); `nil` when it is not that.
    init?(base64URL text: String) {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !standard.contains("=") || standard.hasSuffix("=") else { return nil }
        standard = standard.replacingOccurrences(of: "=", with: "")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        self = Array(data)
    }
}

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
        return Array(Self.hmac(pair, path: path).prefix(size)).base64URLEncoded
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
}

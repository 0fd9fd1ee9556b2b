import CLibCrypto
import Foundation

/// HMAC-SHA256 through OpenSSL's one-shot function.
enum HMACSHA256 {
    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // HMAC() reads `key` and `message` and writes at most EVP_MAX_MD_SIZE bytes to `output`;
        // it fails only for an unknown digest, which EVP_sha256 is not.
        let written = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                output.withUnsafeMutableBytes { out in
                    HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                        messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                        out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length)
                }
            }
        }
        precondition(written != nil && length == 32, "OpenSSL's HMAC-SHA256 failed")
        return Array(output.prefix(32))
    }
}

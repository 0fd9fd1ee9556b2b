import CLibCrypto
import Foundation

/// SHA-256 through OpenSSL's one-shot function: the result cache's keys and entity tags.
enum SHA256Digest {
    /// SHA-256 of `bytes` (32 bytes).
    static func of(_ bytes: some ContiguousBytes) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                _ = SHA256(
                    input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                    out.baseAddress?.assumingMemoryBound(to: UInt8.self))
            }
        }
        return output
    }
}

import CLibCrypto
import Foundation

/// imgproxy's `hashsum`: the digest a source's bytes must have (else the request is a 422).
struct Hashsum: Sendable, Hashable {
    /// The digests imgproxy names, through OpenSSL.
    enum Algorithm: String, Sendable, CaseIterable {
        case md5, sha1, sha256, sha512

        /// The digest's length in bytes.
        var length: Int {
            switch self {
            case .md5: 16
            case .sha1: 20
            case .sha256: 32
            case .sha512: 64
            }
        }
    }

    var algorithm: Algorithm
    /// The expected digest.
    var expected: [UInt8]

    /// Whether `data` has the expected digest.
    func matches(_ data: Data) -> Bool {
        Self.digest(algorithm, of: data) == expected
    }

    /// `algorithm`'s digest of `bytes`, through OpenSSL's one-shot `EVP_Digest`.
    static func digest(_ algorithm: Algorithm, of bytes: some ContiguousBytes) -> [UInt8] {
        let type: OpaquePointer? =
            switch algorithm {
            case .md5: EVP_md5()
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha512: EVP_sha512()
            }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                _ = EVP_Digest(input.baseAddress, input.count, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, type, nil)
            }
        }
        return Array(output.prefix(Int(length)))
    }
}

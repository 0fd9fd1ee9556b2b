import Foundation

/// A certificate authority of the test's own and certificates it signed, made with the `openssl`
/// command (Debian's package; scripts/setup installs it) in a temporary folder: PEM files for
/// servers and clients that speak TLS on loopback.
public final class TestCertificates: Sendable {
    /// A key and the certificate for it, as PEM files.
    public struct Pair: Sendable {
        /// The certificate.
        public let certificate: String
        /// Its private key (unencrypted).
        public let privateKey: String
    }

    /// The authority's certificate: what a client or server trusts.
    public let authority: String
    /// A server certificate naming `localhost` and `127.0.0.1`.
    public let server: Pair
    /// A server certificate naming only `elsewhere.invalid`: right authority, wrong name.
    public let misnamedServer: Pair
    /// A client certificate, for servers that ask clients for one.
    public let client: Pair
    /// The certificate of a second authority, which signed none of the above.
    public let strangerAuthority: String
    private let folder: TemporaryDirectory

    /// The path of `openssl`, or `nil` when it is not installed.
    public static let executable = ChildProcess.systemExecutable("openssl")

    /// Why TLS tests are skipped when it is missing.
    public static let missingReason = "openssl is not installed (scripts/setup installs it)"

    private struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// PEM files end in `.pem`: swift-nio-ssl reads a key file's format from its extension.
    ///
    /// Makes both authorities and every certificate (P-256 keys, valid for two days).
    public init() throws {
        guard let openssl = Self.executable else { throw Failure(description: Self.missingReason) }
        let folder = TemporaryDirectory("tls")
        self.folder = folder
        func run(_ arguments: [String]) throws {
            let output = try ChildProcess.run(openssl, arguments)
            guard output.status == 0 else { throw Failure(description: "openssl \(arguments.first ?? "") failed: \(output.standardError)") }
        }
        func makeAuthority(_ name: String) throws -> Pair {
            let pair = Pair(certificate: folder.appending("\(name)-certificate.pem"), privateKey: folder.appending("\(name)-key.pem"))
            try run([
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", pair.privateKey, "-out", pair.certificate, "-days", "2", "-subj", "/CN=YYKit test \(name)",
            ])
            return pair
        }
        func sign(_ name: String, by authority: Pair, extensions: String) throws -> Pair {
            let pair = Pair(certificate: folder.appending("\(name)-certificate.pem"), privateKey: folder.appending("\(name)-key.pem"))
            let request = folder.appending("\(name).csr"), extensionFile = folder.appending("\(name).ext")
            try Data(extensions.utf8).write(to: URL(fileURLWithPath: extensionFile))
            try run([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", pair.privateKey, "-out", request, "-subj", "/CN=\(name)",
            ])
            try run([
                "x509", "-req", "-in", request, "-CA", authority.certificate, "-CAkey", authority.privateKey,
                "-CAcreateserial", "-out", pair.certificate, "-days", "2", "-extfile", extensionFile,
            ])
            return pair
        }
        let authority = try makeAuthority("authority")
        self.authority = authority.certificate
        server = try sign("server", by: authority, extensions: "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        misnamedServer = try sign("misnamed", by: authority, extensions: "subjectAltName=DNS:elsewhere.invalid\n")
        client = try sign("client", by: authority, extensions: "extendedKeyUsage=clientAuth\n")
        strangerAuthority = try makeAuthority("stranger").certificate
    }

    /// `redis-server` arguments that make it speak only TLS on its port with `pair`, trusting this
    /// authority for client certificates, which it asks for when `clientsAuthenticate`.
    public func redisArguments(serving pair: Pair, clientsAuthenticate: Bool = false) -> [String] {
        [
            "--tls-cert-file", pair.certificate, "--tls-key-file", pair.privateKey, "--tls-ca-cert-file", authority,
            "--tls-auth-clients", clientsAuthenticate ? "yes" : "no",
        ]
    }
}

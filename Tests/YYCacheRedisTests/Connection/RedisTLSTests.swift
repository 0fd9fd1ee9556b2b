#if RedisTLS
import Foundation
import NIOCore
import NIOSSL
import Testing
import TestSupport
import TestTraits
import YYCache
@testable import YYCacheRedis

/// `rediss://` against `redis-server`s started by the tests, speaking only TLS, with certificates
/// from the tests' own authority.
@Suite(.needsRedisTLS, .hangLimit) struct RedisTLSTests {
    let certificates: TestCertificates

    init() throws {
        certificates = try TestCertificates()
    }

    /// A client of `url` that trusts `authority` (the system's roots when `nil`) and presents
    /// `identity` when the server asks for a certificate.
    func client(_ url: String, trusting authority: String?, presenting identity: TestCertificates.Pair? = nil) throws -> RedisClient {
        var configuration = try RedisConfiguration(urls: [url])
        configuration.operationTimeout = .seconds(2)
        configuration.connectTimeout = .seconds(2)
        if let authority { configuration.tls.trustRoots = .file(authority) }
        if let identity {
            configuration.tls.certificateChain = try NIOSSLCertificate.fromPEMFile(identity.certificate).map { .certificate($0) }
            configuration.tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: identity.privateKey, format: .pem))
        }
        return RedisClient(configuration: configuration)
    }

    /// Whether `error` is a failed connection that blames the TLS handshake.
    func isHandshakeFailure(_ error: any Error) -> Bool {
        guard case RedisError.connectionFailed(_, let message) = error else { return false }
        return message.contains("TLS handshake failed")
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func storesAndReadsWhenTheCertificateNamesTheHostOrTheAddress(host: String) async throws {
        let server = try RedisServer(tls: certificates.redisArguments(serving: certificates.server))
        let client = try client("rediss://\(host):\(server.port)", trusting: certificates.authority)
        try await client.send(RedisCommand("SET", ["greeting", "hello over \(host)"]))
        #expect(try await client.send(RedisCommand("GET", ["greeting"])) == .bulkString(ByteBuffer(string: "hello over \(host)")))
        await client.close()
    }

    @Test func aServerSignedByAnAuthorityTheClientDoesNotTrustIsRefused() async throws {
        let server = try RedisServer(tls: certificates.redisArguments(serving: certificates.server))
        // Another authority, then the system's roots, which do not hold the tests' authority either.
        for authority in [certificates.strangerAuthority, nil] {
            let client = try client(server.url, trusting: authority)
            await #expect(performing: { try await client.send(RedisCommand("PING")) }, throws: isHandshakeFailure)
            await client.close()
        }
    }

    @Test func aCertificateThatNamesAnotherHostIsRefused() async throws {
        let server = try RedisServer(tls: certificates.redisArguments(serving: certificates.misnamedServer))
        let client = try client(server.url, trusting: certificates.authority)
        await #expect(performing: { try await client.send(RedisCommand("PING")) }, throws: isHandshakeFailure)
        await client.close()
    }

    @Test func plainTextAndTLSThatMeetFailWithinTheTimeoutsAndReturnNoValue() async throws {
        let tlsServer = try RedisServer(tls: certificates.redisArguments(serving: certificates.server))
        let plainClient = try makeClient(["redis://127.0.0.1:\(tlsServer.port)"])
        await #expect(throws: RedisError.self) { try await plainClient.send(RedisCommand("PING")) }
        await plainClient.close()

        let plainServer = try RedisServer()
        let tlsClient = try client("rediss://127.0.0.1:\(plainServer.port)", trusting: certificates.authority)
        await #expect(performing: { try await tlsClient.send(RedisCommand("PING")) }, throws: isHandshakeFailure)
        await tlsClient.close()
    }

    @Test func aServerThatAsksForAClientCertificateServesOnlyAClientThatPresentsOne() async throws {
        let server = try RedisServer(tls: certificates.redisArguments(serving: certificates.server, clientsAuthenticate: true))
        let anonymous = try client(server.url, trusting: certificates.authority)
        await #expect(throws: RedisError.self) { try await anonymous.send(RedisCommand("PING")) }
        await anonymous.close()
        let identified = try client(server.url, trusting: certificates.authority, presenting: certificates.client)
        #expect(try await identified.send(RedisCommand("PING")) == .simpleString("PONG"))
        await identified.close()
    }

    @Test func aCacheSharesValuesWithAnotherThroughATLSTier() async throws {
        let server = try RedisServer(tls: certificates.redisArguments(serving: certificates.server))
        let folder = TemporaryDirectory("redis-tls-cache")
        func tier() throws -> RedisCacheTier {
            RedisCacheTier(client: try client(server.url, trusting: certificates.authority), namespace: "tls:")
        }
        let writer = try Cache<Data>(path: folder.appending("writer"), sharedTier: try tier())
        let reader = try Cache<Data>(path: folder.appending("reader"), sharedTier: try tier())
        try await writer.setValue(Data("shared over TLS".utf8), forKey: "k")
        #expect(try await reader.value(forKey: "k") == Data("shared over TLS".utf8))
        #expect(reader.sharedTierStatistics.hits == 1)
        #expect(reader.sharedTierStatistics.errors == 0)
    }
}
#endif

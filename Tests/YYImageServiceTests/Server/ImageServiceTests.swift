import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing
import YYImage

@testable import YYImageService

/// `ImageService` as a real server on loopback, for what needs sockets: the address guard dials
/// (or refuses to dial) the origin, and connections are counted on the origin's side.
@Suite(.timeLimit(.minutes(2))) struct ImageServiceTests {
    static let jpeg = TestImages.jpeg()

    private func plain(_ options: String, _ source: String) -> String {
        "/insecure/\(options)/plain/" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    static func origin() async throws -> LoopbackHTTPServer {
        try await LoopbackHTTPServer.start { _ in .response(headers: [("Content-Type", "image/jpeg")], body: jpeg) }
    }

    @Test func aLiveServerAnswersAProcessingURLOverHTTP() async throws {
        let origin = try await Self.origin()
        defer { origin.stop() }
        let service = try await ServiceHarness.start()
        let reply = try await service.get(plain("rs:fit:100:100/f:png", origin.url("/photo.jpg").absoluteString))
        #expect(reply.status == 200 && reply.header("Content-Type") == "image/png")
        #expect(try reply.image().canvasWidth == 100)
        await service.stop()
    }

    @Test func loopbackSourcesAreRefusedUnlessAllowedAndNoConnectionIsMade() async throws {
        let origin = try await Self.origin()
        defer { origin.stop() }
        let service = try await ServiceHarness.start { $0.addressPolicy = SourceAddressPolicy() }
        let reply = try await service.get(plain("w:10", origin.url("/photo.jpg").absoluteString))
        #expect(reply.status == 404 && reply.errorMessage == "the source's address is not allowed")
        #expect(origin.acceptedConnections == 0)
        await service.stop()
    }

    @Test func aRedirectToARefusedAddressIs404AndThatAddressSeesNoConnection() async throws {
        let refused = try await LoopbackHTTPServer.start(host: "127.0.0.2") { _ in .response(body: Self.jpeg) }
        defer { refused.stop() }
        let origin = try await LoopbackHTTPServer.start { _ in
            .response(status: 302, headers: [("Location", refused.url("/photo.jpg").absoluteString)])
        }
        defer { origin.stop() }
        let service = try await ServiceHarness.start {
            $0.addressPolicy = SourceAddressPolicy(allowsLoopback: true, deniedNetworks: ["127.0.0.2/32"])
        }
        let reply = try await service.get(plain("w:10", origin.url("/start.jpg").absoluteString))
        #expect(reply.status == 404 && reply.errorMessage == "the source's address is not allowed")
        #expect(origin.requests.count == 1)
        #expect(refused.acceptedConnections == 0)
        await service.stop()
    }
}

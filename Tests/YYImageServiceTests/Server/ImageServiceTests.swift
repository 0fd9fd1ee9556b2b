import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing
import YYImage

@testable import YYImageService

/// `ImageService` as a real server on loopback, for what needs sockets: the address guard dials
/// (or refuses to dial) the origin, connections are counted on the origin's side, and paths go
/// through the HTTP parser as a client sends them.
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

    /// NIO's HTTP parser and the router together: what a real request line turns into.
    @Test func pathsWithEmptySegmentsAndBase64SplitBySlashesReachTheHandlerIntact() async throws {
        let root = TemporaryDirectory("serve-local")
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: root.appending("x.jpg")))
        let service = try await ServiceHarness.start { $0.localRoot = root.path }
        let plain = try await service.get("/insecure/rs:fit:40:40/plain/local:///x.jpg@png")
        #expect(plain.status == 200 && plain.header("Content-Type") == "image/png", "\(plain.errorMessage ?? "")")
        let encoded = Data("local:///x.jpg".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let split = stride(from: 0, to: encoded.count, by: 4).map { offset in
            String(encoded.dropFirst(offset).prefix(4))
        }.joined(separator: "/")
        let base64 = try await service.get("/insecure/rs:fit:40:40/" + split + ".webp")
        #expect(base64.status == 200 && base64.header("Content-Type") == "image/webp", "\(base64.errorMessage ?? "")")
        let info = try await service.get("/info/insecure/plain/local:///x.jpg")
        #expect(info.status == 200)
        await service.stop()
    }
}

import Foundation
import LoopbackHTTPServer
import TestSupport
import TestTraits
import Testing
import YYImage

@testable import YYImageService

/// `ImageService` as a real server on loopback, for what needs sockets: the address guard dials
/// (or refuses to dial) the origin, connections are counted on the origin's side, and paths go
/// through the HTTP parser as a client sends them.
@Suite(.hangLimit) struct ImageServiceTests {
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

    @Test func theOriginsLastModifiedIsTheResultsAndAnswersIfModifiedSince() async throws {
        let modified = "Tue, 03 Nov 2026 10:20:30 GMT"
        let origin = try await LoopbackHTTPServer.start { _ in
            .response(headers: [("Content-Type", "image/jpeg"), ("Last-Modified", modified), ("Cache-Control", "max-age=600")], body: Self.jpeg)
        }
        defer { origin.stop() }
        let service = try await ServiceHarness.start()
        let path = plain("w:10", origin.url("/photo.jpg").absoluteString)
        let first = try await service.get(path)
        #expect(first.status == 200 && first.header("Last-Modified") == modified)
        // From the result cache, and with the original then read from the disk cache, the same.
        let again = try await service.get(plain("w:11", origin.url("/photo.jpg").absoluteString))
        #expect(again.header("Last-Modified") == modified)
        let current = try await service.get(path, headers: [("If-Modified-Since", modified)])
        #expect(current.status == 304 && current.body.isEmpty)
        let older = try await service.get(path, headers: [("If-Modified-Since", "Mon, 02 Nov 2026 10:20:30 GMT")])
        #expect(older.status == 200)
        // If-None-Match decides when both are sent.
        let tagged = try await service.get(path, headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", modified)])
        #expect(tagged.status == 200)
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

    @Test func aRedirectFromAnAllowedSourceToOneOutsideTheListIs404AndTheOtherPortSeesNoConnection() async throws {
        let outside = try await Self.origin()
        defer { outside.stop() }
        let origin = try await LoopbackHTTPServer.start { _ in
            .response(status: 302, headers: [("Location", outside.url("/photo.jpg").absoluteString)])
        }
        defer { origin.stop() }
        // Without its trailing slash, as an operator may well write it.
        let service = try await ServiceHarness.start { $0.allowedSources = ["http://127.0.0.1:\(origin.port)"] }
        let reply = try await service.get(plain("w:10", origin.url("/start.jpg").absoluteString))
        #expect(reply.status == 404 && reply.errorMessage == "the source's address is not allowed")
        #expect(origin.requests.count == 1)
        #expect(outside.acceptedConnections == 0)
        await service.stop()
    }

    @Test func atTheShutdownTimeoutARequestStillAtWorkIsAnswered503AndTheServiceStops() async throws {
        let gate = LoopbackHTTPServer.Gate()
        let origin = try await LoopbackHTTPServer.start { _ in [.waitFor(gate)] + .response(body: Self.jpeg) }
        defer {
            gate.open()
            origin.stop()
        }
        let service = try await ServiceHarness.start {
            $0.shutdownTimeout = .milliseconds(300)
            $0.limits.downloadTimeout = .seconds(60)
        }
        async let reply = service.get(plain("w:10", origin.url("/held.jpg").absoluteString))
        await origin.wait { _, requests in requests >= 1 }
        async let stopped: Void = service.stop()
        let answer = try await reply
        #expect(answer.status == 503 && answer.errorMessage == "the service is shutting down")
        await stopped
    }

    /// Whether `bytes` hold a whole response head with status 200.
    private static func isOK(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasPrefix("HTTP/1.1 200") && text.contains("\r\n\r\n")
    }

    @Test func aRequestHeadSentTooSlowlyAndAnIdleKeepAliveConnectionAreClosed() async throws {
        let service = try await ServiceHarness.start { $0.idleTimeout = .milliseconds(300) }
        let slow = try RawConnection(port: service.port)
        try slow.send("GET /health HTTP/1.1\r\nHo")
        #expect(try await slow.read(timeout: .seconds(20)).closed)
        let idle = try RawConnection(port: service.port)
        try idle.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        let answer = try await idle.read(timeout: .seconds(20))
        #expect(Self.isOK(answer.bytes) && answer.closed)
        await service.stop()
    }

    @Test func pastTheConnectionCapANewConnectionWaitsUntilOneCloses() async throws {
        let service = try await ServiceHarness.start { $0.maximumConnections = 2 }
        let first = try RawConnection(port: service.port)
        let second = try RawConnection(port: service.port)
        for connection in [first, second] {
            try connection.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
            let answer = try await connection.read(timeout: .seconds(20), until: Self.isOK)
            #expect(Self.isOK(answer.bytes))
        }
        let third = try RawConnection(port: service.port)
        try third.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n")
        // Not accepted while two are open (a bounded look: nothing may arrive)…
        #expect(try await third.read(timeout: .milliseconds(500)).bytes.isEmpty)
        // …and answered once one of them closes.
        first.shutdown()
        let answer = try await third.read(timeout: .seconds(20), until: Self.isOK)
        #expect(Self.isOK(answer.bytes))
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

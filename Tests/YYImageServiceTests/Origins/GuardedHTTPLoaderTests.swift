import Foundation
import LoopbackHTTPServer
import TestTraits
import Testing
import YYDispatch
import YYWebImage

@testable import YYImageService

/// The loader checks the addresses a name resolves to and connects to the checked one. The
/// resolver here answers with addresses of the test's choosing; only loopback is ever dialled.
@Suite(.hangLimit) struct GuardedHTTPLoaderTests {
    /// Answers every name with fixed addresses, and counts the questions.
    final class FixedResolver: SourceAddressResolver {
        let answers: [String]
        init(_ answers: [String]) { self.answers = answers }
        func addresses(forHost host: String) async throws -> [String] { answers }
    }

    private func loader(_ answers: [String], policy: SourceAddressPolicy = SourceAddressPolicy(allowsLoopback: true)) -> GuardedHTTPLoader {
        GuardedHTTPLoader(
            policy: policy, resolver: FixedResolver(answers), connectTimeout: .seconds(5), maximumBytes: 1 << 20, userAgent: "test")
    }

    @Test(arguments: [["10.0.0.7"], ["169.254.169.254"], ["::ffff:192.168.0.1"], ["fd00::5"], ["100.64.0.9"]])
    func aNameThatResolvesToAnInternalAddressIsRefusedBeforeAnyConnection(answers: [String]) async {
        await #expect(throws: ImagePipelineError.self) {
            _ = try await loader(answers).load(DataLoadRequest(url: URL(string: "http://images.example.test/cat.jpg")!))
        }
        do {
            _ = try await loader(answers).load(DataLoadRequest(url: URL(string: "http://images.example.test/cat.jpg")!))
        } catch {
            guard case .refusedAddress = error else { Issue.record("expected a refused address, got \(error)"); return }
        }
    }

    @Test func theCheckedAddressIsTheOneDialledAndTheNameGoesInTheHostField() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            .response(body: Array((request.header("Host") ?? "none").utf8))
        }
        defer { server.stop() }
        // The name resolves to a refused address and to loopback: only loopback is used.
        let response = try await loader(["10.1.1.1", "127.0.0.1"])
            .load(DataLoadRequest(url: URL(string: "http://images.example.test:\(server.port)/cat.jpg")!))
        var body = Data()
        for try await chunk in response.body { body.append(chunk) }
        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "images.example.test:\(server.port)")
        #expect(server.requests.map(\.path) == ["/cat.jpg"])
    }

    @Test func anIPv6LiteralIsCheckedAsAnAddressAndRefusedWithoutResolving() async {
        // [::1] is loopback and fd00::1 private: both refused by the default policy, nothing dialled.
        for url in ["http://[::1]:9/a.jpg", "http://[fd00::1]/a.jpg", "http://[::ffff:127.0.0.1]/a.jpg"] {
            do {
                _ = try await loader([], policy: SourceAddressPolicy()).load(DataLoadRequest(url: URL(string: url)!))
                Issue.record("\(url) was fetched")
            } catch {
                guard case .refusedAddress = error else { Issue.record("\(url): expected a refused address, got \(error)"); continue }
            }
        }
    }

    @Test func aConnectionClosedBeforeAnyAnswerIsAskedAgainOnANewOne() async throws {
        // The origin drops the first connection unanswered and answers the second.
        let requests = Locked(0)
        let server = try await LoopbackHTTPServer.start { _ in
            let index = requests.withLock { count in
                defer { count += 1 }
                return count
            }
            return index == 0 ? [.close] : .response(body: Array("second".utf8))
        }
        defer { server.stop() }
        let response = try await loader(["127.0.0.1"]).load(DataLoadRequest(url: server.url("/a.jpg")))
        var body = Data()
        for try await chunk in response.body { body.append(chunk) }
        #expect(response.statusCode == 200 && String(decoding: body, as: UTF8.self) == "second")
        #expect(server.acceptedConnections == 2)
    }

    @Test func anOriginThatAnswersAndClosesAtOnceIsReadEveryTime() async throws {
        // Answered and closed as soon as the request head arrives, hundreds of times: the answer
        // is read even when the connection is closed before the request is written out.
        let server = try await LoopbackHTTPServer.start { _ in .response(body: Array("ok".utf8)) + [.close] }
        defer { server.stop() }
        let loader = loader(["127.0.0.1"])
        for round in 0..<300 {
            let response = try await loader.load(DataLoadRequest(url: server.url("/\(round).jpg")))
            #expect(response.statusCode == 200, "round \(round)")
        }
    }

    @Test func aBodyPastTheLimitStopsTheDownload() async throws {
        let server = try await LoopbackHTTPServer.start { _ in
            [
                .send(LoopbackHTTPServer.Step.head(status: 200, headers: [("Transfer-Encoding", "chunked")])),
                .sendForever(LoopbackHTTPServer.Step.chunk([UInt8](repeating: 1, count: 32 * 1024))),
            ]
        }
        defer { server.stop() }
        await #expect(throws: ImagePipelineError.tooLarge(limit: 1 << 20)) {
            _ = try await loader(["127.0.0.1"]).load(DataLoadRequest(url: server.url("/endless")))
        }
        await server.wait { open, _ in open == 0 }
        #expect(server.openConnections == 0)
    }
}

import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import NIOCore
import NIOFoundationCompat
import TestSupport
import TestTraits
import Testing
import YYCache
import YYImage

/// Two `yy serve` replicas with folders of their own and one real redis-server: a result is
/// computed once for the cluster, and a replica killed mid-request leaves no result behind.
@Suite(.needsRedisServer, .hangLimit) struct ServeRedisTests {
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton)
    private let jpeg = [UInt8](try! ImageEncoder.encode(Bitmap(width: 200, height: 100), as: .jpeg))
    let folder = TemporaryDirectory("serve-redis")
    let redis: RedisServer

    init() throws {
        redis = try RedisServer()
    }

    /// A replica: its own cache folder and metrics port, the shared Redis.
    private func replica(_ name: String, extra: [String] = []) async throws -> (process: ChildProcess, port: Int, metrics: Int) {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        let port = try LoopbackPort.unused(), metrics = try LoopbackPort.unused()
        let child = try ChildProcess(
            binary,
            [
                "serve", "--port", String(port), "--metrics-port", String(metrics), "--cache-dir", folder.appending(name),
                "--redis", redis.url, "--allow-loopback-sources",
            ] + extra)
        await waitUntil { (try? await get(port, "/health").status) == 200 || !child.isRunning }
        return (child, port, metrics)
    }

    private func get(_ port: Int, _ path: String) async throws -> (status: Int, body: Data) {
        let response = try await Self.client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(60))
        return (Int(response.status.code), Data(buffer: try await response.body.collect(upTo: 16 << 20)))
    }

    /// A sample's value from a replica's metrics (0 when absent).
    private func metric(_ port: Int, _ sample: String) async throws -> Double {
        let text = String(decoding: try await get(port, "/metrics").body, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test func aResultAskedOfBothReplicasAtOnceIsComputedOnceFromOneDownload() async throws {
        let gate = LoopbackHTTPServer.Gate()
        let jpeg = self.jpeg
        let origin = try await LoopbackHTTPServer.start { _ in [.waitFor(gate)] + .response(body: jpeg) }
        defer { origin.stop() }
        // A's download waits on the gate until B is in flight, which a loaded machine can take
        // longer than the default 5 s download deadline to see.
        let patient = ["--download-timeout", "60"]
        let a = try await replica("a", extra: patient), b = try await replica("b", extra: patient)
        defer {
            a.process.terminate()
            b.process.terminate()
        }
        let path = "/insecure/rs:fill:50:50/plain/" + origin.url("/photo.jpg").absoluteString
        async let fromA = get(a.port, path)
        await origin.wait { _, requests in requests >= 1 }
        async let fromB = get(b.port, path)
        await waitUntil { (try? await metric(b.metrics, "yy_serve_requests_in_flight")) == 1 }
        #expect(try await metric(b.metrics, "yy_serve_requests_in_flight") == 1)
        gate.open()
        let (replyA, replyB) = try await (fromA, fromB)
        #expect(replyA.status == 200 && replyB.status == 200)
        #expect(replyA.body == replyB.body)
        #expect(origin.requests.count == 1)
        let computed = #"yy_serve_results_total{level="computed"}"#
        #expect(try await metric(a.metrics, computed) + metric(b.metrics, computed) == 1)
        #expect(try await metric(b.metrics, #"yy_serve_results_total{level="shared"}"#) == 1)
    }

    @Test func aReplicaKilledMidRequestLeavesNoResultAnywhere() async throws {
        let gate = LoopbackHTTPServer.Gate()
        let jpeg = self.jpeg
        let origin = try await LoopbackHTTPServer.start { _ in [.waitFor(gate)] + .response(body: jpeg) }
        defer { origin.stop() }
        let a = try await replica("a", extra: ["--processing-timeout", "2"])
        let path = "/insecure/rs:fit:40:40/plain/" + origin.url("/photo.jpg").absoluteString
        async let doomed = try? get(a.port, path)
        await origin.wait { _, requests in requests >= 1 }
        a.process.kill()
        #expect(a.process.wait().terminatedBySignal)
        _ = await doomed
        gate.open()
        // Nothing on A's disk.
        #expect(try DiskCache(path: folder.appending("a/results")).totalCount == 0)
        // Nothing in Redis: B computes the result itself once A's claim has expired. A claim
        // lives for its replica's processing timeout plus a second (ImageService's
        // fillLockTimeToLive): B waits about 3 s for A's, so B gets a timeout longer than that.
        let b = try await replica("b", extra: ["--processing-timeout", "10"])
        defer { b.process.terminate() }
        let reply = try await get(b.port, path)
        #expect(reply.status == 200)
        #expect(try ImageDecoder(data: reply.body).canvasWidth == 40)
        #expect(try await metric(b.metrics, #"yy_serve_results_total{level="computed"}"#) == 1)
        #expect(try await metric(b.metrics, #"yy_serve_results_total{level="shared"}"#) == 0)
    }
}

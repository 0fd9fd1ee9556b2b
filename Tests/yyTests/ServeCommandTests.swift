import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import NIOCore
import NIOFoundationCompat
import TestSupport
import TestTraits
import Testing
import YYImage

/// `yy serve` as a process: the address it logs, its environment variables, and SIGTERM with
/// requests in flight.
@Suite(.hangLimit) struct ServeCommandTests {
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton)
    private let jpeg = [UInt8](try! ImageEncoder.encode(Bitmap(width: 64, height: 48), as: .jpeg))

    /// Starts `yy serve` on a free port with `arguments`, and waits until it answers /health.
    private func serve(_ arguments: [String], environment: [String: String] = [:]) async throws -> (ChildProcess, Int) {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        let port = try LoopbackPort.unused()
        let folder = NSTemporaryDirectory() + "yykit-serve-\(UUID().uuidString.prefix(8))"
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let child = try ChildProcess(binary, ["serve", "--port", String(port), "--cache-dir", folder] + arguments, environment: env)
        await waitUntil { (try? await get(port, "/health").status) == 200 || !child.isRunning }
        return (child, port)
    }

    private func get(_ port: Int, _ path: String) async throws -> (status: Int, body: Data) {
        let response = try await Self.client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(30))
        return (Int(response.status.code), Data(buffer: try await response.body.collect(upTo: 16 << 20)))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is refused (nothing listens there any more).
    private func refusesConnections(_ port: Int) -> Bool {
        do {
            _ = try RawConnection(port: port)
            return false
        } catch {
            return error as? RawConnectionError == .system(ECONNREFUSED)
        }
    }

    @Test func itLogsItsAddressAndStopsAfterTheRequestsInFlightOnSIGTERMWithExitCode0() async throws {
        let gate = LoopbackHTTPServer.Gate()
        let jpeg = self.jpeg
        let origin = try await LoopbackHTTPServer.start { _ in [.waitFor(gate)] + .response(body: jpeg) }
        defer { origin.stop() }
        let (child, port) = try await serve(["--allow-loopback-sources", "--download-timeout", "60"])
        async let inFlight = get(port, "/insecure/rs:fit:32:32/plain/" + origin.url("/held.jpg").absoluteString)
        await origin.wait { _, requests in requests >= 1 }
        child.terminate()
        // The server stops accepting before the held request is let go.
        await waitUntil { refusesConnections(port) }
        #expect(refusesConnections(port))
        gate.open()
        let reply = try await inFlight
        #expect(reply.status == 200)
        #expect(try ImageDecoder(data: reply.body).canvasWidth == 32)
        let output = child.wait()
        #expect(output.status == 0 && !output.terminatedBySignal, "\(output.standardError)")
        #expect(output.standardError.contains("yy serve listening on http://127.0.0.1:\(port)"))
    }

    @Test func environmentVariablesSetValuesRepeatedValuesAndFlags() async throws {
        let jpeg = self.jpeg
        let origin = try await LoopbackHTTPServer.start { _ in .response(body: jpeg) }
        defer { origin.stop() }
        // Two key/salt pairs (comma-separated), a flag, and a value.
        let env = [
            "YY_SERVE_KEY": "736563726574,00ff", "YY_SERVE_SALT": "68656C6C6F,ff00", "YY_SERVE_ALLOW_LOOPBACK_SOURCES": "1",
            "YY_SERVE_SIGNATURE_SIZE": "8",
        ]
        let (child, port) = try await serve([], environment: env)
        let path = "/w:10/plain/" + origin.url("/a.jpg").absoluteString
        #expect(try await get(port, "/insecure" + path).status == 403)
        let signed = try #require(imgproxySignature(path, keyHex: "00ff", saltHex: "ff00", size: 8))
        #expect(try await get(port, "/" + signed + path).status == 200)
        child.terminate()
        #expect(child.wait().status == 0)
    }

    /// imgproxy's signature of `path`, through openssl (another implementation than ours).
    private func imgproxySignature(_ path: String, keyHex: String, saltHex: String, size: Int) -> String? {
        let salt = stride(from: 0, to: saltHex.count, by: 2).map { UInt8(saltHex.dropFirst($0).prefix(2), radix: 16)! }
        guard let openssl = ChildProcess.systemExecutable("openssl"),
            let output = try? ChildProcess.run(
                openssl, ["dgst", "-sha256", "-mac", "HMAC", "-macopt", "hexkey:" + keyHex, "-binary"], input: Data(salt) + Data(path.utf8))
        else { return nil }
        return output.standardOutput.prefix(size).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func environmentVariablesSetWhatFlagsDoNotAndFlagsWin() async throws {
        let folder = TemporaryDirectory("serve-root")
        try Data(jpeg).write(to: URL(fileURLWithPath: folder.appending("a.jpg")))
        let env = ["YY_SERVE_ROOT": folder.path, "YY_SERVE_MAX_RESULT_SIDE": "20", "YY_SERVE_PRESET": "small=w:10,tiny=w:5"]
        let (fromEnvironment, port) = try await serve([], environment: env)
        #expect(try await get(port, "/insecure/pr:small/plain/local:///a.jpg").status == 200)
        #expect(try await get(port, "/insecure/w:30/plain/local:///a.jpg").status == 422)
        fromEnvironment.terminate()
        #expect(fromEnvironment.wait().status == 0)
        let (flagsWin, secondPort) = try await serve(["--max-result-side", "100"], environment: env)
        #expect(try await get(secondPort, "/insecure/w:30/plain/local:///a.jpg").status == 200)
        flagsWin.terminate()
        #expect(flagsWin.wait().status == 0)
    }

    @Test func everyOptionInTheHelpHasAnEnvironmentVariableAndBadValuesAreUsageErrors() throws {
        let binary = try #require(BuildProducts.executable("yy"), "build the yy product first")
        let help = try ChildProcess.run(binary, ["serve", "--help"]).text
        let regex = try NSRegularExpression(pattern: "--([a-z][a-z0-9-]+)")
        let names = Set(regex.matches(in: help, range: NSRange(help.startIndex..., in: help)).map { String(help[Range($0.range(at: 1), in: help)!]) })
        let variables = try NSRegularExpression(pattern: "YY_SERVE_([A-Z][A-Z0-9_]+)")
        let listed = Set(
            variables.matches(in: help, range: NSRange(help.startIndex..., in: help))
                .map { help[Range($0.range(at: 1), in: help)!].lowercased().replacingOccurrences(of: "_", with: "-") })
        // Every option has its variable, and every variable its option (NAME and the examples aside).
        #expect(names.subtracting(["help", "version"]).subtracting(listed).isEmpty)
        #expect(listed.subtracting(names).subtracting(["name"]).isEmpty, "\(listed.subtracting(names))")
        let bad = try ChildProcess.run(binary, ["serve", "--key", "abc"])
        #expect(bad.status == 2)
        let badNetwork = try ChildProcess.run(binary, ["serve", "--deny-source-network", "nowhere"])
        #expect(badNetwork.status == 2 && badNetwork.standardError.contains("--deny-source-network"))
    }
}

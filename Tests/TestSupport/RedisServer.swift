import Foundation

/// A `redis-server` of the test's own on a loopback port, persistence off, stopped when released.
///
/// It runs in a folder of its own (`--dir`), so nothing it might write lands in the working
/// directory, which is the clone. Readiness is read from the server's log ("Ready to accept connections"), not waited for.
public final class RedisServer: @unchecked Sendable {
    /// The loopback port it listens on.
    public let port: Int
    /// Whether it speaks TLS on that port (and nothing else anywhere).
    public let usesTLS: Bool
    private let extraArguments: [String]
    /// The server's working directory; a `--dir` in the caller's arguments comes later and wins.
    private let folder = TemporaryDirectory("redis-server")
    private let lock = NSLock()
    private var process: ChildProcess?

    /// The path of `redis-server`, or `nil` when it is not installed.
    public static let executable = ChildProcess.systemExecutable("redis-server")

    /// Why Redis tests are skipped when it is missing.
    public static let missingReason = "redis-server is not installed (scripts/setup --reference installs it)"

    /// Starts a server on a free loopback port with `arguments` added to its command line
    /// (e.g. `["--requirepass", "secret"]`). With `tls` (its certificate options, see
    /// ``TestCertificates/redisArguments(serving:clientsAuthenticate:)``) the port speaks only TLS.
    public init(arguments: [String] = [], tls: [String]? = nil) throws {
        extraArguments = ["--dir", folder.path] + (tls ?? []) + arguments
        usesTLS = tls != nil
        var lastError: (any Error)?
        // A port found free can be taken by someone else before the server binds it: try again.
        for _ in 0..<5 {
            let port = try LoopbackPort.unused()
            do {
                process = try Self.launch(port: port, tls: usesTLS, arguments: extraArguments)
                self.port = port
                return
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    deinit { kill() }

    /// `redis://127.0.0.1:PORT`, or `rediss://…` for TLS.
    public var url: String { "\(usesTLS ? "rediss" : "redis")://127.0.0.1:\(port)" }

    /// Ends the server with SIGKILL and waits until it is gone: as a crash, and the only signal
    /// sure to arrive (a child inherits the test runner's blocked signals, SIGTERM among them).
    /// Persistence is off, so nothing is lost that a test would keep.
    public func kill() {
        lock.lock()
        defer { lock.unlock() }
        guard let process else { return }
        process.kill()
        process.reap()
        self.process = nil
    }

    /// Starts the server again on the same port (after ``kill()``), empty.
    public func restart() throws {
        lock.lock()
        defer { lock.unlock() }
        precondition(process == nil, "restart a stopped server only")
        process = try Self.launch(port: port, tls: usesTLS, arguments: extraArguments)
    }

    private struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs redis-server and returns once its log says it accepts connections (or throws with the
    /// log when it exits first, or says nothing for 20 s). Its log goes on being read (and kept)
    /// until it ends, so the server never blocks on a full pipe.
    private static func launch(port: Int, tls: Bool, arguments: [String]) throws -> ChildProcess {
        guard let executable else { throw StartFailure(description: missingReason) }
        let ports = tls ? ["--port", "0", "--tls-port", String(port)] : ["--port", String(port)]
        let process = try ChildProcess(
            executable,
            ports + [
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--protected-mode", "no", "--daemonize", "no", "--loglevel", "notice",
            ] + arguments)
        guard process.waitForOutput(containing: "Ready to accept connections", within: .seconds(20)), process.isRunning else {
            process.kill()
            let log = process.wait()
            throw StartFailure(description: "redis-server on port \(port) did not start: \(log.text)\(log.standardError)")
        }
        return process
    }
}

public import Foundation
import Synchronization

/// A child process with its standard streams captured.
public final class ChildProcess: @unchecked Sendable {
    /// The path of the installed tool `name`: Debian's `/usr/bin`, then `/usr/local/bin` and
    /// Homebrew's `/opt/homebrew/bin`; `nil` when it is in none of them.
    public static func systemExecutable(_ name: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What a finished process produced.
    public struct Output: Sendable {
        /// The exit status (or the signal number, when `terminatedBySignal`).
        public var status: Int32
        /// Whether a signal ended it.
        public var terminatedBySignal: Bool
        /// Everything it wrote to standard output.
        public var standardOutput: Data
        /// Everything it wrote to standard error, as text.
        public var standardError: String
        /// Standard output as text.
        public var text: String { String(decoding: standardOutput, as: UTF8.self) }
    }

    // Started with posix_spawn and read with blocking reads rather than through Foundation's
    // Process and FileHandle's readabilityHandler: on Linux, Process.run() reads past a buffer
    // while it lists /proc/self/fd (swift-corelibs-foundation#5472), and readability handlers set
    // up and torn down on several threads leave libdispatch's epoll loop a freed registration that
    // crashes its manager thread (swift-corelibs-libdispatch#949); each now and then crashed a
    // test run.
    private let pid: pid_t
    private let input: FileHandle
    // Read on threads of their own so a chatty child never blocks on a full pipe. `output`
    // guards both buffers and announces every chunk to ``waitForOutput(containing:within:)``.
    private let collected = DispatchGroup()
    private let output = NSCondition()
    private var outputData = Data()
    private var errorData = Data()
    private var outputEnded = false
    // The wait status, once waitpid has reaped the child (guarded by the lock).
    private let lock = NSLock()
    private var exitStatus: Int32?
    // Set once the child is reaped, readable while `wait` holds the lock: after it the pid may
    // belong to another process, so a late kill must not be sent.
    private let reaped = Atomic<Bool>(false)

    /// Starts `executable` with `arguments` (and `environment`, else this process's).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        let (inputRead, inputWrite) = try Self.pipe()
        let (outputRead, outputWrite) = try Self.pipe()
        let (errorRead, errorWrite) = try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The pipes are close-on-exec; their copies on 0, 1 and 2 are not.
        posix_spawn_file_actions_adddup2(&actions, inputRead, 0)
        posix_spawn_file_actions_adddup2(&actions, outputWrite, 1)
        posix_spawn_file_actions_adddup2(&actions, errorWrite, 2)
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        // C strings for argv and envp, freed once the child is started.
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        for fd in [inputRead, outputWrite, errorWrite] { close(fd) }
        guard status == 0 else {
            for fd in [inputWrite, outputRead, errorRead] { close(fd) }
            throw CocoaError(
                .executableLoad, userInfo: [NSFilePathErrorKey: executable, NSLocalizedDescriptionKey: String(cString: strerror(status))])
        }
        pid = child
        input = FileHandle(fileDescriptor: inputWrite, closeOnDealloc: true)
        collect(outputRead) { child, chunk in
            if let chunk { child.outputData.append(chunk) } else { child.outputEnded = true }
        }
        collect(errorRead) { child, chunk in
            if let chunk { child.errorData.append(chunk) }
        }
    }

    /// Reads `descriptor` to its end on a thread of its own, handing each chunk and then `nil`
    /// (the end) to `append` under the `output` lock, and closes it.
    private func collect(_ descriptor: Int32, _ append: @escaping @Sendable (ChildProcess, Data?) -> Void) {
        collected.enter()
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                output.withLock { append(self, count > 0 ? Data(buffer[..<count]) : nil) }
                output.broadcast()
                if count <= 0 { break }
            }
            close(descriptor)
            collected.leave()
        }
        reader.start()
    }

    /// Waits until the child's standard output contains `text` and returns `true`, or returns
    /// `false` when its output ends without it or `within` passes first.
    public func waitForOutput(containing text: String, within limit: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.seconds(limit))
        return output.withLock {
            while true {
                if String(decoding: outputData, as: UTF8.self).contains(text) { return true }
                if outputEnded || !output.wait(until: deadline) { return false }
            }
        }
    }

    /// A close-on-exec pipe: its read and write ends. Made under ``spawning``, so that no child
    /// started meanwhile inherits an end before it is marked (an inherited write end would keep
    /// the reader from ever seeing the end of the output).
    private static func pipe() throws -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        guard Foundation.pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Held from making the pipes to starting the child.
    private static let spawning = NSLock()

    /// The child's process id.
    public var processIdentifier: Int32 { pid }

    /// Writes `data` to the child's standard input and closes it.
    public func send(_ data: Data) {
        write(data)
        try? input.close()
    }

    /// Writes `data` to the child's standard input and leaves it open.
    public func write(_ data: Data) {
        // Written as Foundation's Process pipes were: a child that has gone makes it fail.
        try? input.write(contentsOf: data)
    }

    /// Sends SIGKILL.
    public func kill() {
        Foundation.kill(pid, SIGKILL)
    }

    /// Sends SIGTERM.
    public func terminate() {
        Foundation.kill(pid, SIGTERM)
    }

    /// Whether the child is still running.
    public var isRunning: Bool {
        lock.withLock {
            if exitStatus != nil { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            exitStatus = status
            reaped.store(true, ordering: .sequentiallyConsistent)
            return false
        }
    }

    /// Waits for the child to end and returns what it produced. With `closingInput` false its
    /// standard input stays open until then, so a child that waits for the end of its input
    /// never ends (the caller's time limit then fails the test).
    public func wait(closingInput: Bool = true) -> Output {
        if closingInput { try? input.close() }
        let status = reap()
        collected.wait()
        // waitpid's status: the low 7 bits are the signal that ended it, else bits 8-15 the exit code.
        let signal = status & 0x7f
        return output.withLock {
            Output(
                status: signal == 0 ? (status >> 8) & 0xff : signal,
                terminatedBySignal: signal != 0,
                standardOutput: outputData,
                standardError: String(decoding: errorData, as: UTF8.self))
        }
    }

    /// Waits for the child to end, closes its standard input and returns its wait status, without
    /// waiting for the end of its output (a grandchild may hold it open: a server's forked child).
    @discardableResult
    public func reap() -> Int32 {
        let status = lock.withLock { () -> Int32 in
            if let exitStatus { return exitStatus }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            exitStatus = status
            reaped.store(true, ordering: .sequentiallyConsistent)
            return status
        }
        try? input.close()
        return status
    }

    /// Runs a command to completion; with `timeLimit`, one still running after it is killed
    /// (SIGKILL: the output says `terminatedBySignal`), so that a child that hangs cannot hold the
    /// test run, which a test's own time limit cannot interrupt while it waits here.
    public static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, timeLimit: Duration? = nil
    ) throws -> Output {
        let child = try ChildProcess(executable, arguments)
        if let input { child.send(input) }
        if let timeLimit {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds(timeLimit)) {
                if !child.reaped.load(ordering: .sequentiallyConsistent) { child.kill() }
            }
        }
        return child.wait()
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

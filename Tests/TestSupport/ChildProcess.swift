public import Foundation

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

    private let process = Process()
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()
    private let inputPipe = Pipe()
    // Read on background threads so a chatty child never blocks on a full pipe.
    private let collected = DispatchGroup()
    private var outputData = Data()
    private var errorData = Data()

    /// Starts `executable` with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = inputPipe
        try process.run()
        let outputHandle = outputPipe.fileHandleForReading
        let errorHandle = errorPipe.fileHandleForReading
        DispatchQueue.global().async(group: collected) { self.outputData = outputHandle.readDataToEndOfFile() }
        DispatchQueue.global().async(group: collected) { self.errorData = errorHandle.readDataToEndOfFile() }
    }

    /// The child's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Writes `data` to the child's standard input and closes it.
    public func send(_ data: Data) {
        inputPipe.fileHandleForWriting.write(data)
        try? inputPipe.fileHandleForWriting.close()
    }

    /// Writes `data` to the child's standard input and leaves it open.
    public func write(_ data: Data) {
        inputPipe.fileHandleForWriting.write(data)
    }

    /// Sends SIGKILL.
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Sends SIGTERM.
    public func terminate() {
        Foundation.kill(process.processIdentifier, SIGTERM)
    }

    /// Whether the child is still running.
    public var isRunning: Bool { process.isRunning }

    /// Waits for the child to end and returns what it produced. With `closingInput` false its
    /// standard input stays open until then, so a child that waits for the end of its input
    /// never ends (the caller's time limit then fails the test).
    public func wait(closingInput: Bool = true) -> Output {
        if closingInput { try? inputPipe.fileHandleForWriting.close() }
        process.waitUntilExit()
        try? inputPipe.fileHandleForWriting.close()
        collected.wait()
        return Output(
            status: process.terminationStatus,
            terminatedBySignal: process.terminationReason == .uncaughtSignal,
            standardOutput: outputData,
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs a command to completion.
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> Output {
        let child = try ChildProcess(executable, arguments)
        if let input { child.send(input) }
        return child.wait()
    }
}

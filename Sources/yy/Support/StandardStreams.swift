// swift-format-ignore-file: OrderedImports
// (Glibc is imported @preconcurrency before Foundation imports it plainly)
// Glibc declares `stdout` a mutable global, which Swift 6 refuses to read (swiftlang/swift#75601);
// it is set before `main` and never changed, and the stream locks itself for each call.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation

/// Byte-exact reading and writing of the standard streams and files.
enum StandardStreams {
    /// Writes `data` to standard output as is, after any text `print` has buffered.
    ///
    /// Foundation's `FileHandle.write(_:)` traps on a write error: `yy cache get k > /dev/full`
    /// crashed. This throws ``ToolFailure/failure(_:)`` with the system's reason instead.
    static func writeStandardOutput(_ data: Data) throws(ToolFailure) {
        try finishStandardOutput()
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            throw .failure("cannot write standard output: \(reason(for: error))")
        }
    }

    /// Writes out what `print` has buffered, and throws if any of it, now or earlier, could not
    /// be written (a full disk), so that lost output is an error rather than a success.
    static func finishStandardOutput() throws(ToolFailure) {
        guard fflush(stdout) != 0 || ferror(stdout) != 0 else { return }
        let reason = errno != 0 ? String(cString: strerror(errno)) : "write error"
        clearerr(stdout)
        throw .failure("cannot write standard output: \(reason)")
    }

    /// Writes text to standard error as is; an error there is dropped, as there is nowhere left
    /// to report it (`FileHandle.write(_:)` would trap).
    static func writeError(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Writes a line of text to standard error.
    static func printError(_ text: String) {
        writeError(text + "\n")
    }

    /// What `handle` holds, up to `limit` bytes: reading stops there, so an endless input (a
    /// pipe that never closes) costs at most `limit` bytes of memory.
    private static func read(_ handle: FileHandle, upTo limit: Int) throws -> Data {
        var data = Data()
        while data.count < limit {
            guard let chunk = try handle.read(upToCount: min(1 << 20, limit - data.count)), !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return data
    }

    /// The bytes of the file at `path`, or of standard input when `path` is `-`, at most one past
    /// `limit`: a caller that gets more than `limit` bytes knows the input was cut there.
    ///
    /// Unlike `FileHandle.readDataToEndOfFile()`, which traps on a read error (standard input
    /// redirected from a folder) and reads an endless pipe until memory runs out, this throws
    /// ``ToolFailure/failure(_:)`` with the system's reason ("cannot read 'x': Is a directory").
    static func read(_ path: String, atMost limit: Int) throws(ToolFailure) -> Data {
        let name = path == "-" ? "standard input" : "'\(path)'"
        do {
            let handle = path == "-" ? FileHandle.standardInput : try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { if path != "-" { try? handle.close() } }
            return try read(handle, upTo: limit == Int.max ? limit : limit + 1)
        } catch {
            throw .failure("cannot read \(name): \(reason(for: error))")
        }
    }

    /// The system's words for a file error from Foundation ("Is a directory"), whose own
    /// description on Linux names no cause.
    private static func reason(for error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain, let message = strerror(Int32(underlying.code)) {
            return String(cString: message)
        }
        return error.localizedDescription
    }

    /// The contents of the file at `path`, with a readable error.
    static func readFile(_ path: String) throws(ToolFailure) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .failure("cannot read '\(path)'")
        }
        return data
    }

    /// Whether standard error is a terminal (progress bars are drawn only then).
    static var standardErrorIsTerminal: Bool {
        isatty(FileHandle.standardError.fileDescriptor) != 0
    }
}

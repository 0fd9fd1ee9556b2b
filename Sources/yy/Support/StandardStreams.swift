import Foundation

/// Byte-exact reading and writing of the standard streams and files.
enum StandardStreams {
    /// Writes `data` to standard output as is.
    static func writeStandardOutput(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Writes a line of text to standard error.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// What `handle` holds, up to `limit` bytes: reading stops there, so an endless input (a
    /// pipe that never closes) costs at most `limit` bytes of memory.
    static func read(_ handle: FileHandle, upTo limit: Int) throws -> Data {
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

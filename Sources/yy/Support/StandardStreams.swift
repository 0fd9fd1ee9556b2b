import Foundation

/// Byte-exact reading and writing of the standard streams and files.
enum StandardStreams {
    /// Everything on standard input.
    static func readStandardInput() -> Data {
        FileHandle.standardInput.readDataToEndOfFile()
    }

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

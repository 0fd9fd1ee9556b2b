package import Foundation

/// Writes a whole output file the way a command-line user expects, for the files YYKit's tools
/// and encoders are told to write.
///
/// A regular file (or a new one) is written atomically: a temporary file beside it, then a
/// rename, so that a reader never sees half of it and a failed write leaves the old one. Anything
/// else the user names as output, such as `/dev/stdout`, a FIFO or a terminal, is written in place.
/// An atomic write there replaces the name with a regular file: `yy image convert a.gif
/// /dev/stdout` piped nothing, and run as root it turned `/dev/stdout` (or `/dev/null`) into a file.
/// A symbolic link to a regular file stays a link; the file it names is replaced.
package enum FileOutput {
    /// Writes `data` to `path`, atomically when `path` is (or will be) a regular file.
    /// - Throws: Foundation's error for the file that could not be opened or written.
    package static func write(_ data: Data, toPath path: String) throws {
        var status = stat()
        // stat, not lstat: what counts is what the name leads to (/dev/stdout is a link to a pipe).
        guard stat(path, &status) == 0 else {
            // Nothing there yet (or a dangling link): a new regular file.
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            return
        }
        if status.st_mode & S_IFMT == S_IFREG {
            try data.write(to: URL(fileURLWithPath: resolvingLinks(path)), options: .atomic)
        } else {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
        }
    }

    /// `path` with its symbolic links followed, so that the rename replaces the file a link names
    /// rather than the link.
    private static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

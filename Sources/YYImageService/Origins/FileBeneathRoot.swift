import Foundation

/// Reads a file beneath a root folder without following any symbolic link on the way: each
/// component of the path is opened relative to the folder opened before it, with `O_NOFOLLOW`,
/// and the bytes are read from the descriptor that was checked. A link swapped in at any moment
/// (between a check and an open, say) is refused where it stands, so nothing outside the root
/// can be read. Symbolic links under the root are therefore never followed, even those that
/// would stay inside it.
enum FileBeneathRoot {
    /// Why a file could not be read.
    enum Failure: Error, Equatable {
        /// No such file, or a component that is a link, a special file or no folder.
        case notFound
        /// Larger than the limit.
        case tooLarge
    }

    /// A file's bytes and when it last changed.
    struct Contents: Sendable {
        var data: Data
        var modified: Date
    }

    /// The bytes of `components` (no `.`, `..` or empty ones) under `root`, at most
    /// `maximumBytes` of them, with the file's modification time.
    static func read(_ components: [String], under root: String, maximumBytes: Int) throws(Failure) -> Contents {
        precondition(!components.isEmpty && !components.contains { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("/") })
        // The root itself may be a link (an operator's choice); nothing below it may.
        var folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw .notFound }
        for component in components.dropLast() {
            let next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            close(folder)
            guard next >= 0 else { throw .notFound }
            folder = next
        }
        // Non-blocking, so that a FIFO does not hold the open; fstat then refuses anything
        // but a regular file.
        let file = openat(folder, components[components.count - 1], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        close(folder)
        guard file >= 0 else { throw .notFound }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else { throw .notFound }
        guard Int(status.st_size) <= maximumBytes else { throw .tooLarge }
        #if canImport(Darwin)
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtimespec.tv_sec))
        #else
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
        #endif
        return Contents(data: try readAll(file, maximumBytes: maximumBytes), modified: modified)
    }

    /// Everything `file` holds, refused once past `maximumBytes` (it may grow after fstat).
    private static func readAll(_ file: Int32, maximumBytes: Int) throws(Failure) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(file, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .notFound }
            if count == 0 { return data }
            guard data.count + count <= maximumBytes else { throw .tooLarge }
            data.append(contentsOf: buffer[0..<count])
        }
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a disk cache: values in `data/`, folders waiting for deletion in `trash/`.
///
/// Every value file is written once under a fresh unique name and never modified afterwards, so a
/// reader that found a name in the manifest either reads the whole file or finds it gone.
struct FileStore: Sendable {
    let dataPath: String
    let trashPath: String

    /// The file names a custom function may not return, and why.
    static func validate(fileNameStem stem: String) throws(DiskCacheError) {
        if stem.isEmpty { throw .invalidFileName(stem, reason: "empty") }
        if stem == "." || stem == ".." { throw .invalidFileName(stem, reason: "'.' and '..' are folders") }
        if stem.utf8.contains(UInt8(ascii: "/")) { throw .invalidFileName(stem, reason: "contains '/'") }
        if stem.utf8.contains(0) { throw .invalidFileName(stem, reason: "contains a NUL byte") }
        if stem.utf8.count > 200 { throw .invalidFileName(stem, reason: "longer than 200 bytes") }
    }

    /// Creates `data/` and `trash/` inside `root` if needed.
    init(root: String) throws(DiskCacheError) {
        dataPath = root + "/data"
        trashPath = root + "/trash"
        try Self.makeDirectory(dataPath)
        try Self.makeDirectory(trashPath)
    }

    /// A new name for a value file: an optional stem, then 128 random bits in hex.
    static func uniqueName(stem: String?) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = String(generator.next() as UInt64, radix: 16) + String(generator.next() as UInt64, radix: 16)
        guard let stem else { return random }
        return stem + "." + random
    }

    func path(of name: String) -> String {
        dataPath + "/" + name
    }

    /// Whether the file `name` is in `data/`.
    func exists(_ name: String) -> Bool {
        access(path(of: name), F_OK) == 0
    }

    /// Writes `data` to a new file `name` in `data/`. Fails if the name already exists.
    func write(_ data: Data, named name: String) throws(DiskCacheError) {
        let path = path(of: name)
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == ENOENT {
            // `data/` was moved to the trash by a concurrent removeAll (maybe in another process).
            try Self.makeDirectory(dataPath)
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw .fromErrno(errno, path: path) }
        defer { close(descriptor) }
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure {
            unlink(path)
            throw .fromErrno(failure, path: path)
        }
    }

    /// The contents of `name`, or `nil` when the file does not exist.
    func read(named name: String) throws(DiskCacheError) -> Data? {
        let path = path(of: name)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .fromErrno(errno, path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .fromErrno(errno, path: path) }
        let size = Int(info.st_size)
        var data = Data(count: size)
        let failure: Int32? = data.withUnsafeMutableBytes { bytes in
            var offset = 0
            while offset < size {
                let count = systemRead(descriptor, bytes.baseAddress! + offset, size - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }  // the file shrank: impossible for our write-once files
                offset += count
            }
            return offset == size ? nil : EIO
        }
        if let failure { throw .fromErrno(failure, path: path) }
        return data
    }

    /// Deletes value files; missing ones are fine.
    func remove(_ names: some Sequence<String>) {
        for name in names { unlink(path(of: name)) }
    }

    /// The names of the files in `data/`.
    func fileNames() throws(DiskCacheError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: dataPath)
        } catch {
            throw .fileSystem(path: dataPath, errno: EIO, message: "\(error)")
        }
    }

    /// Moves `data/` into `trash/` under a unique name and creates an empty `data/`.
    func moveDataToTrash() throws(DiskCacheError) {
        let destination = trashPath + "/" + Self.uniqueName(stem: "data")
        if rename(dataPath, destination) != 0 && errno != ENOENT {
            throw .fromErrno(errno, path: dataPath)
        }
        try Self.makeDirectory(dataPath)
    }

    /// Deletes everything in `trash/`, reporting `(removed, total)` file counts as it goes.
    func emptyTrash(progress: (_ removed: Int, _ total: Int) -> Void) {
        let manager = FileManager.default
        let folders = (try? manager.contentsOfDirectory(atPath: trashPath)) ?? []
        var files: [String] = []
        var directories: [String] = []
        for folder in folders {
            let folderPath = trashPath + "/" + folder
            directories.append(folderPath)
            if let enumerator = manager.enumerator(atPath: folderPath) {
                while let item = enumerator.nextObject() as? String {
                    files.append(folderPath + "/" + item)
                }
            }
        }
        let total = files.count
        progress(0, total)
        // Deepest paths first, so folders are empty by the time they are reached.
        for (done, file) in files.sorted(by: { $0.count > $1.count }).enumerated() {
            if unlink(file) != 0 && (errno == EISDIR || errno == EPERM) { rmdir(file) }
            if (done + 1) % 64 == 0 || done + 1 == total { progress(done + 1, total) }
        }
        for directory in directories { try? manager.removeItem(atPath: directory) }
    }

    /// `mkdir -p`, with typed errors.
    static func makeDirectory(_ path: String) throws(DiskCacheError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            var info = stat()
            if code == EEXIST || stat(prefix, &info) == 0 {
                guard stat(prefix, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                    throw .fileSystem(path: prefix, errno: ENOTDIR, message: "exists and is not a folder")
                }
                continue
            }
            throw .fromErrno(code, path: prefix)
        }
    }
}

// Inside `FileStore`, `write` and `read` name its own methods; these reach the C library's.
@inline(__always) private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

@inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

import Foundation

/// A fresh folder under the system's temporary directory, deleted when the value is released.
public final class TemporaryDirectory: Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Creates the folder; `label` appears in its name to help when a test leaves one behind.
    public init(_ label: String = "test") {
        let name = "yykit-\(label)-\(UUID().uuidString.prefix(8))"
        path = NSTemporaryDirectory().appending(name)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        // Make anything a test made read-only deletable again. Not through a symbolic link:
        // chmod follows it, and a test's link to /dev/full made that device 0755.
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            while let item = enumerator.nextObject() as? String {
                var status = stat()
                guard lstat(path + "/" + item, &status) == 0, status.st_mode & S_IFMT != S_IFLNK else { continue }
                chmod(path + "/" + item, 0o755)
            }
        }
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the folder.
    public func appending(_ component: String) -> String {
        path + "/" + component
    }
}

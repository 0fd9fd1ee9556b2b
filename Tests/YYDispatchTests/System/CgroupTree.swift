import Foundation
import TestSupport

/// Files laid out under a temporary folder, as `/proc/self/cgroup` and a cgroup mount would be.
struct CgroupTree {
    let folder = TemporaryDirectory("cgroup")

    /// Writes `files` (path under the folder → contents) and returns the folder's path.
    func write(_ files: [String: String]) throws -> String {
        for (path, text) in files {
            let url = URL(fileURLWithPath: folder.appending(path))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder.path
    }
}

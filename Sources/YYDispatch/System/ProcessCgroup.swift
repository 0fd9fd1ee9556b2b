import Foundation

/// The cgroup this process belongs to, as `/proc/self/cgroup` names it, and the folders of it
/// and of its ancestors under the cgroup mount, where limits are read.
///
/// A limit may be set on the process's own cgroup or on any ancestor (a systemd unit's
/// `MemoryMax=` or `CPUQuota=`, the slice above it, a container's), so readers walk from the
/// process's folder up to the mount's root. In a container whose cgroup is the root of its mount
/// the path is `/`, or names folders that do not exist under the mount: only the root is read.
struct ProcessCgroup {
    /// The path in the unified (v2) hierarchy, `/` when unknown.
    let unifiedPath: String
    /// The path in each v1 hierarchy, by controller (`memory`, `cpu`, …).
    let controllerPaths: [String: String]
    /// Where the hierarchies are mounted (`/sys/fs/cgroup`).
    let root: String

    /// This process's cgroup, from the files at the given places.
    init(cgroupList: String = "/proc/self/cgroup", root: String = "/sys/fs/cgroup") {
        self.init(parsing: Self.readSmallFile(cgroupList) ?? "", root: root)
    }

    /// The cgroup that a `/proc/<pid>/cgroup` text names: `0::/path` for the unified hierarchy,
    /// `4:memory:/path` or `3:cpu,cpuacct:/path` for v1 ones. A path may itself hold ':'.
    init(parsing text: String, root: String) {
        var unified = "/"
        var controllers: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0", fields[1].isEmpty {
                unified = String(fields[2])
            } else {
                for controller in fields[1].split(separator: ",") { controllers[String(controller)] = String(fields[2]) }
            }
        }
        self.unifiedPath = unified
        self.controllerPaths = controllers
        self.root = root
    }

    /// The unified hierarchy's folders of this cgroup and its ancestors, the process's own first.
    var unifiedFolders: [String] { Self.folders(from: unifiedPath, under: root) }

    /// The folders of this cgroup and its ancestors in the v1 hierarchy of `controller` (mounted
    /// at `root/controller`), the process's own first.
    func folders(controller: String) -> [String] {
        Self.folders(from: controllerPaths[controller] ?? "/", under: root + "/" + controller)
    }

    /// `root` followed by `path`, then by each of its parents, up to `root` itself; a path that
    /// climbs out (`..`) is taken as the root.
    static func folders(from path: String, under root: String) -> [String] {
        var components = path.split(separator: "/").map(String.init)
        if components.contains(where: { $0 == ".." || $0 == "." }) { components = [] }
        var result: [String] = []
        while true {
            result.append(([root] + components).joined(separator: "/"))
            guard !components.isEmpty else { return result }
            components.removeLast()
        }
    }

    /// A file holding one integer ("max" and anything else that is not one read as `nil`).
    static func readInteger(_ path: String) -> Int64? {
        readSmallFile(path).flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// A small text file (procfs and cgroupfs files report no size, so it is read to its end).
    static func readSmallFile(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

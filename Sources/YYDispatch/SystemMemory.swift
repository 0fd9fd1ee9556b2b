import Foundation

/// How much memory this process may use and how much of it is left: the limit of its own cgroup
/// (v2, then v1), or of an ancestor of it, else the machine's (`/proc/meminfo`).
///
/// The cgroup is the one `/proc/self/cgroup` names, so that a limit set on a systemd unit
/// (`MemoryMax=`) or on the slice above it counts, not only one on the container the process
/// sees as the root. In a container whose cgroup is its root, the path is `/` or does not exist
/// under the mount, and the root's figures are read, as before.
enum SystemMemory {
    /// Limits above this mean "none": cgroup v1 reports no limit as a number near `Int64.max`.
    private static let unlimited = Int64(1) << 60

    /// The reading for this process, from the files at the given places; `nil` where none of them
    /// exists (off Linux).
    static func reading(cgroupList: String = "/proc/self/cgroup", cgroupRoot: String = "/sys/fs/cgroup",
                        meminfo: String = "/proc/meminfo") -> MemoryPressureMonitor.Reading? {
        let paths = readSmallFile(cgroupList).map(cgroupPaths) ?? (unified: nil, memory: nil)
        return cgroupV2Reading(root: cgroupRoot, path: paths.unified ?? "/")
            ?? cgroupV1Reading(root: cgroupRoot + "/memory", path: paths.memory ?? "/")
            ?? readSmallFile(meminfo).flatMap(parseMeminfo)
    }

    /// This process's cgroup paths, from `/proc/self/cgroup`: the unified (v2) hierarchy's
    /// (`0::/path`) and the v1 memory controller's (`4:memory:/path`, or with other controllers
    /// before or after it).
    static func cgroupPaths(_ text: String) -> (unified: String?, memory: String?) {
        var unified: String?, memory: String?
        for line in text.split(separator: "\n") {
            // hierarchy-ID:controllers:path; the path may itself hold ':'.
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0", fields[1].isEmpty {
                unified = String(fields[2])
            } else if fields[1].split(separator: ",").contains("memory") {
                memory = String(fields[2])
            }
        }
        return (unified, memory)
    }

    /// cgroup v2: the tightest `memory.max` from the process's cgroup up to the root, with what is
    /// left under it (`memory.current` of the same cgroup); `nil` when no level has a limit.
    static func cgroupV2Reading(root: String, path: String) -> MemoryPressureMonitor.Reading? {
        var tightest: MemoryPressureMonitor.Reading?
        for directory in directories(from: path, under: root) {
            guard let limit = readInteger(directory + "/memory.max"),  // "max" (no limit) reads as nil
                  limit < unlimited,
                  let usage = readInteger(directory + "/memory.current")
            else { continue }
            let level = MemoryPressureMonitor.Reading(available: limit - usage, limit: limit)
            tightest = tightest.map {
                MemoryPressureMonitor.Reading(available: min($0.available, level.available), limit: min($0.limit, level.limit))
            } ?? level
        }
        return tightest
    }

    /// cgroup v1: the process's memory cgroup (or the nearest one that exists, up to the root),
    /// whose `memory.stat` gives the limit in force there, its ancestors' included
    /// (`hierarchical_memory_limit`), and whose `memory.usage_in_bytes` gives the usage; `nil`
    /// without a limit.
    static func cgroupV1Reading(root: String, path: String) -> MemoryPressureMonitor.Reading? {
        guard let directory = directories(from: path, under: root).first(where: {
            FileManager.default.fileExists(atPath: $0 + "/memory.usage_in_bytes")
        }) else { return nil }
        let ownLimit = readInteger(directory + "/memory.limit_in_bytes")
        let hierarchical = readSmallFile(directory + "/memory.stat").flatMap { statValue("hierarchical_memory_limit", in: $0) }
        guard let limit = [ownLimit, hierarchical].compactMap({ $0 }).min(), limit < unlimited,
              let usage = readInteger(directory + "/memory.usage_in_bytes")
        else { return nil }
        return MemoryPressureMonitor.Reading(available: limit - usage, limit: limit)
    }

    /// Parses `/proc/meminfo`: `MemTotal` and `MemAvailable`, in kB.
    static func parseMeminfo(_ text: String) -> MemoryPressureMonitor.Reading? {
        var total: Int64?
        var available: Int64?
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            guard fields.count >= 2, let kilobytes = Int64(fields[1]) else { continue }
            switch fields[0] {
            case "MemTotal": total = kilobytes * 1024
            case "MemAvailable": available = kilobytes * 1024
            default: continue
            }
        }
        guard let total, let available else { return nil }
        return MemoryPressureMonitor.Reading(available: available, limit: total)
    }

    /// `root` followed by `path`, then by each of its parents, up to `root` itself; a path that
    /// climbs out (`..`) is taken as the root.
    private static func directories(from path: String, under root: String) -> [String] {
        var components = path.split(separator: "/").map(String.init)
        if components.contains(where: { $0 == ".." || $0 == "." }) { components = [] }
        var result: [String] = []
        while true {
            result.append(([root] + components).joined(separator: "/"))
            guard !components.isEmpty else { return result }
            components.removeLast()
        }
    }

    /// The value of `key` in a `memory.stat` file ("key value" lines).
    private static func statValue(_ key: String, in text: String) -> Int64? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == key { return Int64(fields[1]) }
        }
        return nil
    }

    /// A file holding one integer ("max" and anything else that is not one read as `nil`).
    private static func readInteger(_ path: String) -> Int64? {
        readSmallFile(path).flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation

/// How much memory this process may use and how much of it is left: the limit of its own cgroup
/// (v2, then v1), or of an ancestor of it, else the machine's (`/proc/meminfo`).
///
/// The cgroup is the one `/proc/self/cgroup` names (``ProcessCgroup``), so that a limit set on a
/// systemd unit (`MemoryMax=`) or on the slice above it counts, not only one on the container the
/// process sees as the root.
enum SystemMemory {
    /// Limits above this mean "none": cgroup v1 reports no limit as a number near `Int64.max`.
    private static let unlimited = Int64(1) << 60

    /// The reading for this process, from the files at the given places; `nil` where none of them
    /// exists (off Linux).
    static func reading(
        cgroupList: String = "/proc/self/cgroup", cgroupRoot: String = "/sys/fs/cgroup",
        meminfo: String = "/proc/meminfo"
    ) -> MemoryPressureMonitor.Reading? {
        let cgroup = ProcessCgroup(cgroupList: cgroupList, root: cgroupRoot)
        return cgroupV2Reading(cgroup.unifiedFolders)
            ?? cgroupV1Reading(cgroup.folders(controller: "memory"))
            ?? ProcessCgroup.readSmallFile(meminfo).flatMap(parseMeminfo)
    }

    /// cgroup v2: the tightest `memory.max` of `folders` (a cgroup and its ancestors), with the
    /// least left under any of them (`memory.current`); `nil` when none has a limit.
    static func cgroupV2Reading(_ folders: [String]) -> MemoryPressureMonitor.Reading? {
        var tightest: MemoryPressureMonitor.Reading?
        for folder in folders {
            guard let limit = ProcessCgroup.readInteger(folder + "/memory.max"),  // "max" (no limit) reads as nil
                limit < unlimited,
                let usage = ProcessCgroup.readInteger(folder + "/memory.current")
            else { continue }
            let level = MemoryPressureMonitor.Reading(available: limit - usage, limit: limit)
            tightest =
                tightest.map {
                    MemoryPressureMonitor.Reading(available: min($0.available, level.available), limit: min($0.limit, level.limit))
                } ?? level
        }
        return tightest
    }

    /// cgroup v1: the first of `folders` (a cgroup and its ancestors) that exists, whose
    /// `memory.stat` gives the limit in force there, its ancestors' included
    /// (`hierarchical_memory_limit`), and whose `memory.usage_in_bytes` the usage; `nil` without
    /// a limit.
    static func cgroupV1Reading(_ folders: [String]) -> MemoryPressureMonitor.Reading? {
        guard let folder = folders.first(where: { FileManager.default.fileExists(atPath: $0 + "/memory.usage_in_bytes") })
        else { return nil }
        let ownLimit = ProcessCgroup.readInteger(folder + "/memory.limit_in_bytes")
        let hierarchical = ProcessCgroup.readSmallFile(folder + "/memory.stat").flatMap { statValue("hierarchical_memory_limit", in: $0) }
        guard let limit = [ownLimit, hierarchical].compactMap({ $0 }).min(), limit < unlimited,
            let usage = ProcessCgroup.readInteger(folder + "/memory.usage_in_bytes")
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

    /// The value of `key` in a `memory.stat` file ("key value" lines).
    private static func statValue(_ key: String, in text: String) -> Int64? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == key { return Int64(fields[1]) }
        }
        return nil
    }
}

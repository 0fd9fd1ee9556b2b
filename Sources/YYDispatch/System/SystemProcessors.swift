import Foundation

/// How many processors this process may keep busy: the active processor count, or fewer when
/// its cgroup (or an ancestor: a container's, a systemd unit's `CPUQuota=`) allows less CPU time
/// than that, as a quota per period.
///
/// A process that runs more threads than its quota lets run is throttled for the rest of each
/// period, however many processors the machine has, so a pool sized by the machine's count would
/// only queue work behind the throttle.
package enum SystemProcessors {
    /// The count for this process, from the files at the given places (at least 1).
    package static func count(
        cgroupList: String = "/proc/self/cgroup", cgroupRoot: String = "/sys/fs/cgroup",
        active: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> Int {
        let cgroup = ProcessCgroup(cgroupList: cgroupList, root: cgroupRoot)
        let quota = cgroupV2Quota(cgroup.unifiedFolders) ?? cgroupV1Quota(cgroup.folders(controller: "cpu"))
        return max(1, min(active, quota ?? Int.max))
    }

    /// cgroup v2: the tightest `cpu.max` ("quota period", or "max period" for none) of `folders`,
    /// as whole processors (rounded up); `nil` without a quota.
    static func cgroupV2Quota(_ folders: [String]) -> Int? {
        folders.compactMap { folder -> Int? in
            guard let text = ProcessCgroup.readSmallFile(folder + "/cpu.max") else { return nil }
            let fields = text.split(whereSeparator: \.isWhitespace)
            guard fields.count == 2, let quota = Int64(fields[0]), let period = Int64(fields[1]) else { return nil }
            return processors(quota: quota, period: period)
        }.min()
    }

    /// cgroup v1: the tightest `cpu.cfs_quota_us` over `cpu.cfs_period_us` of `folders` (-1 is
    /// none), as whole processors (rounded up); `nil` without a quota.
    static func cgroupV1Quota(_ folders: [String]) -> Int? {
        folders.compactMap { folder -> Int? in
            guard let quota = ProcessCgroup.readInteger(folder + "/cpu.cfs_quota_us"),
                let period = ProcessCgroup.readInteger(folder + "/cpu.cfs_period_us")
            else { return nil }
            return processors(quota: quota, period: period)
        }.min()
    }

    /// A quota of CPU time per period as whole processors, rounded up (1.5 processors' worth
    /// keeps two busy part of the time); `nil` for no quota.
    private static func processors(quota: Int64, period: Int64) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return Int((quota + period - 1) / period)
    }
}

import Testing

@testable import YYDispatch

/// How many processors a process may keep busy under a cgroup CPU quota.
@Suite struct SystemProcessorsTests {
    let cgroups = CgroupTree()

    func count(_ files: [String: String], active: Int) throws -> Int {
        let root = try cgroups.write(files)
        return SystemProcessors.count(cgroupList: root + "/cgroup", cgroupRoot: root + "/fs", active: active)
    }

    @Test func aV2QuotaOnAnAncestorLimitsTheCountRoundedUp() throws {
        // 2.5 processors' worth on the slice, none on the service itself.
        #expect(
            try count(
                [
                    "cgroup": "0::/app.slice/app.service\n",
                    "fs/app.slice/cpu.max": "250000 100000\n",
                    "fs/app.slice/app.service/cpu.max": "max 100000\n",
                ], active: 64) == 3)
    }

    @Test func aV1QuotaLimitsTheCountAndMinusOneIsNone() throws {
        #expect(
            try count(
                [
                    "cgroup": "1:cpu,cpuacct:/job\n",
                    "fs/cpu/cpu.cfs_quota_us": "-1\n", "fs/cpu/cpu.cfs_period_us": "100000\n",
                    "fs/cpu/job/cpu.cfs_quota_us": "50000\n", "fs/cpu/job/cpu.cfs_period_us": "100000\n",
                ], active: 16) == 1)
        #expect(
            try count(
                [
                    "cgroup": "1:cpu,cpuacct:/free\n",
                    "fs/cpu/free/cpu.cfs_quota_us": "-1\n", "fs/cpu/free/cpu.cfs_period_us": "100000\n",
                ], active: 16) == 16)
    }

    @Test func theMachinesCountWinsWhenItIsSmallerOrThereIsNoCgroup() throws {
        #expect(try count(["cgroup": "0::/\n", "fs/cpu.max": "800000 100000\n"], active: 2) == 2)
        #expect(SystemProcessors.count(cgroupList: "/nonexistent", cgroupRoot: "/nonexistent", active: 6) == 6)
        #expect(SystemProcessors.count(cgroupList: "/nonexistent", cgroupRoot: "/nonexistent", active: 0) == 1)
    }
}

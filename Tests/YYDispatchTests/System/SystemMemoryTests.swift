import Foundation
import Testing

@testable import YYDispatch

/// Where the process's memory limit is read from, on cgroup trees laid out in a temporary folder.
@Suite struct SystemMemoryTests {
    let cgroups = CgroupTree()

    func tree(_ files: [String: String]) throws -> String { try cgroups.write(files) }

    static let meminfo = "MemTotal:       16777216 kB\nMemAvailable:    8388608 kB\n"

    @Test func aV2LimitOnAnAncestorOfTheProcesssCgroupCounts() throws {
        // A service with no limit of its own in a slice limited to 256 MB (systemd's MemoryMax=).
        let root = try tree([
            "cgroup": "0::/app.slice/app.service\n",
            "fs/app.slice/memory.max": "268435456\n", "fs/app.slice/memory.current": "67108864\n",
            "fs/app.slice/app.service/memory.max": "max\n", "fs/app.slice/app.service/memory.current": "50331648\n",
            "meminfo": Self.meminfo,
        ])
        let reading = SystemMemory.reading(cgroupList: root + "/cgroup", cgroupRoot: root + "/fs", meminfo: root + "/meminfo")
        #expect(reading == MemoryPressureMonitor.Reading(available: 268_435_456 - 67_108_864, limit: 268_435_456))
    }

    @Test func theTightestV2LevelWinsAndTheRootIsReadInAContainer() throws {
        let nested = try tree([
            "a/cgroup": "0::/outer/inner\n",
            "a/fs/outer/memory.max": "1000\n", "a/fs/outer/memory.current": "100\n",
            "a/fs/outer/inner/memory.max": "500\n", "a/fs/outer/inner/memory.current": "450\n",
        ])
        #expect(
            SystemMemory.reading(cgroupList: nested + "/a/cgroup", cgroupRoot: nested + "/a/fs", meminfo: "/nonexistent")
                == MemoryPressureMonitor.Reading(available: 50, limit: 500))
        // A container's own cgroup is its root: the path named in /proc is not under the mount.
        let container = try tree([
            "b/cgroup": "0::/docker/1234\n",
            "b/fs/memory.max": "2000\n", "b/fs/memory.current": "500\n",
        ])
        #expect(
            SystemMemory.reading(cgroupList: container + "/b/cgroup", cgroupRoot: container + "/b/fs", meminfo: "/nonexistent")
                == MemoryPressureMonitor.Reading(available: 1500, limit: 2000))
    }

    @Test func aV1LimitComesFromTheHierarchicalFigureOfTheProcesssCgroup() throws {
        let root = try tree([
            "cgroup": "4:memory:/jobs/job1\n0::/\n",
            "fs/memory/memory.limit_in_bytes": "9223372036854771712\n", "fs/memory/memory.usage_in_bytes": "999999\n",
            "fs/memory/jobs/job1/memory.limit_in_bytes": "9223372036854771712\n",
            "fs/memory/jobs/job1/memory.usage_in_bytes": "1048576\n",
            "fs/memory/jobs/job1/memory.stat": "cache 0\nhierarchical_memory_limit 4194304\nrss 12\n",
            "meminfo": Self.meminfo,
        ])
        let reading = SystemMemory.reading(cgroupList: root + "/cgroup", cgroupRoot: root + "/fs", meminfo: root + "/meminfo")
        #expect(reading == MemoryPressureMonitor.Reading(available: 3_145_728, limit: 4_194_304))
    }

    @Test func withoutAnyLimitTheMachinesMemoryIsRead() throws {
        let root = try tree([
            "cgroup": "4:memory:/x\n0::/x\n",
            "fs/x/memory.max": "max\n", "fs/x/memory.current": "5\n",
            "fs/memory/x/memory.limit_in_bytes": "9223372036854771712\n", "fs/memory/x/memory.usage_in_bytes": "5\n",
            "fs/memory/x/memory.stat": "hierarchical_memory_limit 9223372036854771712\n",
            "meminfo": Self.meminfo,
        ])
        let reading = SystemMemory.reading(cgroupList: root + "/cgroup", cgroupRoot: root + "/fs", meminfo: root + "/meminfo")
        #expect(reading == MemoryPressureMonitor.Reading(available: 8_388_608 * 1024, limit: 16_777_216 * 1024))
        #expect(SystemMemory.reading(cgroupList: "/nonexistent", cgroupRoot: "/nonexistent", meminfo: "/nonexistent") == nil)
    }

    @Test func aPathThatClimbsOutOfTheMountIsReadAsTheRoot() throws {
        let root = try tree([
            "cgroup": "0::/../../etc\n",
            "fs/memory.max": "100\n", "fs/memory.current": "10\n",
        ])
        #expect(
            SystemMemory.reading(cgroupList: root + "/cgroup", cgroupRoot: root + "/fs", meminfo: "/nonexistent")
                == MemoryPressureMonitor.Reading(available: 90, limit: 100))
    }
}

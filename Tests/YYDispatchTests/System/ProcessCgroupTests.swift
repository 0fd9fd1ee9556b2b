import Testing

@testable import YYDispatch

/// Which cgroup `/proc/self/cgroup` names, and the folders limits are read from.
@Suite struct ProcessCgroupTests {
    @Test func readsThePathsOfBothHierarchies() {
        let hybrid = ProcessCgroup(
            parsing: "12:pids:/user.slice\n4:cpu,memory:/system.slice/app.service\n0::/system.slice/app.service\n", root: "/cg")
        #expect(hybrid.unifiedPath == "/system.slice/app.service")
        #expect(hybrid.controllerPaths["memory"] == "/system.slice/app.service")
        #expect(hybrid.controllerPaths["cpu"] == "/system.slice/app.service")
        #expect(hybrid.controllerPaths["pids"] == "/user.slice")
        #expect(ProcessCgroup(parsing: "4:memory:/a:b\n", root: "/cg").controllerPaths["memory"] == "/a:b")
        let unknown = ProcessCgroup(parsing: "garbage\n", root: "/cg")
        #expect(unknown.unifiedPath == "/")
        #expect(unknown.controllerPaths.isEmpty)
    }

    @Test func foldersRunFromTheProcesssCgroupUpToTheMount() {
        let cgroup = ProcessCgroup(parsing: "4:memory:/jobs/job1\n0::/app.slice/app.service\n", root: "/cg")
        #expect(cgroup.unifiedFolders == ["/cg/app.slice/app.service", "/cg/app.slice", "/cg"])
        #expect(cgroup.folders(controller: "memory") == ["/cg/memory/jobs/job1", "/cg/memory/jobs", "/cg/memory"])
        #expect(cgroup.folders(controller: "cpu") == ["/cg/cpu"])
        // A path that climbs out of the mount is read as its root.
        #expect(ProcessCgroup(parsing: "0::/../../etc\n", root: "/cg").unifiedFolders == ["/cg"])
    }
}

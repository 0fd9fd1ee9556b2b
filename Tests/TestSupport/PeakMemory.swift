#if os(Linux)
import Glibc

/// The peak memory of one child process, for tests that check that memory does not grow with
/// the size of the input.
public enum PeakMemory {
    /// Runs `executable` with `arguments` (output discarded, `PATH` the only environment) and
    /// returns its exit status and its peak resident memory in bytes: the kernel's `ru_maxrss`
    /// for that child alone, from `wait4` (`RUSAGE_CHILDREN` mixes every child the test process
    /// ever waited for).
    public static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, peakBytes: Int)? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let strings = [executable] + arguments + ["PATH=/usr/bin:/bin"]
        let pointers = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let argv = Array(pointers.dropLast()) + [nil]
        let environment = [pointers.last!, nil]
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv, environment) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { return nil }
        }
        // Exited normally: the low 7 bits are 0 and the code is in the next byte; else the signal.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, usage.ru_maxrss * 1024)  // Linux counts ru_maxrss in kilobytes
    }
}
#endif

import Foundation

/// Names the calling thread as the system shows it (`top -H`, `perf`, debuggers, and
/// ``StallMonitor``'s thread snapshots), for the threads of YYKit's own.
///
/// Foundation's `Thread.name` does not do it on Linux for a name over 15 bytes: the kernel keeps
/// at most 15 and `pthread_setname_np` then refuses the whole name, so such a thread showed as its
/// process. Names given here are kept to 15 bytes.
package enum ThreadName {
    /// The longest name the kernel keeps, in bytes.
    package static let maximumLength = 15

    /// Names the calling thread `name`.
    package static func setCurrent(_ name: String) {
        precondition(name.utf8.count <= maximumLength, "a thread name of more than \(maximumLength) bytes is cut or refused")
        #if canImport(Darwin)
        _ = pthread_setname_np(name)
        #else
        // Swift's Glibc module leaves out the GNU `pthread_setname_np`; the kernel's file does the same.
        try? Data(name.utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
        #endif
    }
}

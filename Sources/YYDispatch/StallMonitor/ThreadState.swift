import Foundation

/// What one thread of the process was doing when a stall began (Linux: from
/// `/proc/self/task/*/stat`; empty elsewhere).
public struct ThreadState: Sendable, Equatable, CustomStringConvertible {
    /// The kernel's scheduling state of a thread.
    public enum Activity: Sendable, Equatable {
        /// On a CPU or ready for one (`R`).
        case running
        /// Waiting for an event: a lock, a condition, a socket, a timer (`S`).
        case sleeping
        /// In uninterruptible wait, usually disk I/O (`D`).
        case waitingOnDisk
        /// Stopped by a signal or a debugger (`T`, `t`).
        case stopped
        /// Any other state, with the kernel's letter (`Z`, `I`, …).
        case other(Character)

        init(_ letter: Character) {
            switch letter {
            case "R": self = .running
            case "S": self = .sleeping
            case "D": self = .waitingOnDisk
            case "T", "t": self = .stopped
            default: self = .other(letter)
            }
        }
    }

    /// The thread id (`gettid`).
    public var id: Int
    /// The thread's name, as the kernel keeps it (at most 15 bytes).
    public var name: String
    /// What it was doing.
    public var activity: Activity

    public var description: String { "\(id) \(name): \(activity)" }

    /// Every thread of this process, by id.
    static func snapshot() -> [ThreadState] {
        #if os(Linux)
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [] }
        return ids.compactMap(Int.init).sorted().compactMap { id in
            (try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8)).flatMap { parse(stat: $0) }
        }
        #else
        return []
        #endif
    }

    /// Reads `pid (name) state …`. The name may hold spaces and parentheses: it ends at the
    /// last `)`.
    static func parse(stat: String) -> ThreadState? {
        guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), open < close,
            let id = Int(stat[..<open].trimmingCharacters(in: .whitespaces))
        else { return nil }
        let name = String(stat[stat.index(after: open)..<close])
        guard let letter = stat[stat.index(after: close)...].first(where: { $0 != " " }) else { return nil }
        return ThreadState(id: id, name: name, activity: Activity(letter))
    }
}

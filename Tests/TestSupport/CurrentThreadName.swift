import Foundation

/// The system name of the calling thread, as `top -H` and debuggers show it (Linux: from
/// `/proc`; elsewhere Foundation's).
public func currentThreadName() -> String {
    #if os(Linux)
    let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return comm.trimmingCharacters(in: .newlines)
    #else
    return Thread.current.name ?? ""
    #endif
}

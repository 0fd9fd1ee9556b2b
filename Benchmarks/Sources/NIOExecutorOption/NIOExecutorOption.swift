import NIOCore
import NIOPosix

/// The harnesses' `--nio-global-executor` option: makes NIO's singleton event loops Swift's global
/// executor, as a server may do at start-up, so that a task resumes on the loop that completed what
/// it awaited instead of waking a thread of the concurrency pool. Call it before any task runs.
///
/// - Returns: whether the option was given (and the executor installed).
public func installNIOGlobalExecutorIfAsked() -> Bool {
    guard CommandLine.arguments.contains("--nio-global-executor") else { return false }
    guard NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() else {
        fatalError("NIO's event loops could not be installed as the global executor")
    }
    return true
}

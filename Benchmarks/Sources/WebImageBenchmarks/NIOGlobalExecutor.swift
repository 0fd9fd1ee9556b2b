// In a file of its own: importing NIOCore into main.swift would make `HTTPClient.shutdown()`
// resolve to its EventLoopFuture overload.
import NIOCore
import NIOPosix

/// Makes NIO's singleton event loops Swift's global executor; call before any task runs.
func installNIOAsGlobalExecutor() {
    guard NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() else {
        fatalError("NIO's event loops could not be installed as the global executor")
    }
}

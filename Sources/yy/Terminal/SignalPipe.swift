import Dispatch
import Foundation
import Synchronization

/// The write end of the installed ``SignalPipe``, or -1. A global because a signal handler is a
/// C function and captures nothing; atomic because the handler runs on whatever thread the
/// kernel picks, at any moment.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Hands signals to a closure on a dispatch queue, whichever thread the kernel delivers them to
/// (the self-pipe trick: the handler writes the signal's number into a pipe a dispatch source
/// reads).
///
/// Why not libdispatch's signal sources: on Linux they read a signalfd, which only sees a signal
/// that every thread blocks, and under `async main` the main thread waits in `dispatch_main`'s
/// `sigsuspend` with nothing blocked. A signal the kernel gives that thread is lost to the source:
/// `yy image play` missed a terminal resize that way in a loaded test run. A handler runs on any
/// thread.
///
/// One may be installed at a time; ``cancel()`` puts the signals' default actions back.
final class SignalPipe {
    private let signals: [Int32]
    private let readEnd: Int32
    private let writeEnd: Int32
    private let source: any DispatchSourceRead

    /// Installs handlers for `signals`; `handler` gets each signal's number on `queue`.
    /// Returns `nil` when a pipe cannot be made or another `SignalPipe` is installed.
    init?(signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // The handler must never block: a full pipe drops the byte (a burst of resizes needs one).
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        guard signalPipeWriteEnd.compareExchange(expected: -1, desired: ends[1], ordering: .sequentiallyConsistent).exchanged else {
            close(ends[0])
            close(ends[1])
            return nil
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
        self.signals = signals
        let readEnd = readEnd
        source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: queue)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(readEnd, &bytes, bytes.count)
            for signal in bytes.prefix(max(0, count)) { handler(Int32(signal)) }
        }
        // The read end closes once the source has let go of it: closed earlier, libdispatch could
        // still be watching a descriptor the process may already have reused.
        source.setCancelHandler { close(readEnd) }
        source.resume()
        for signal in signals { Self.install(signal, handler: Self.forward) }
    }

    /// Puts the signals' default actions back and closes the pipe (its read end when the source's
    /// cancellation is done).
    func cancel() {
        // Handlers first, so that no new one starts; one already past its load of the write end
        // could still write after the close, a window of a few instructions at the end of a run.
        for signal in signals { Self.install(signal, handler: SIG_DFL) }
        guard signalPipeWriteEnd.compareExchange(expected: writeEnd, desired: -1, ordering: .sequentiallyConsistent).exchanged else { return }
        source.cancel()
        close(writeEnd)
    }

    /// The signal handler: async-signal-safe (an atomic load and `write(2)`, nothing allocated,
    /// `errno` kept for the code it interrupted).
    private static let forward: @convention(c) (Int32) -> Void = { signal in
        let saved = errno
        let end = signalPipeWriteEnd.load(ordering: .relaxed)
        if end >= 0 {
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(end, &byte, 1)
        }
        errno = saved
    }

    private static func install(_ signal: Int32, handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }
}

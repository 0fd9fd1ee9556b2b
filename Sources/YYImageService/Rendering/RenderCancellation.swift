import YYDispatch
import YYImage

/// Set when a render's request is past its deadline or gone; the render stops at its next check.
final class RenderCancellation: Sendable {
    private let cancelled = Locked(false)

    func cancel() { cancelled.withLock { $0 = true } }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Throws once cancelled (the renderer turns the error into a 503).
    func check() throws(ImageError) {
        if isCancelled { throw .invalidInput("cancelled") }
    }
}

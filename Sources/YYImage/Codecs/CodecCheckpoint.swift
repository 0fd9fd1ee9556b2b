import Synchronization

/// A caller's checkpoint lent to a codec's C callbacks for one encode or decode: libwebp's
/// progress hook and libpng's row callback ask ``shouldStop()`` and give up when it says so; the
/// codec then throws the error the checkpoint threw, not the library's own failure.
///
/// The callbacks may come from a codec's worker threads, so the checkpoint is called under a
/// lock, one call at a time; the closure needs no `Sendable` of its own for that.
final class CodecCheckpoint: @unchecked Sendable {
    private let state: Mutex<ImageError?> = Mutex(nil)
    private let checkpoint: () throws(ImageError) -> Void

    /// Runs `body` with a box around `checkpoint`, valid for the call only.
    static func with<Result>(
        _ checkpoint: () throws(ImageError) -> Void, _ body: (CodecCheckpoint) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        let outcome: Swift.Result<Result, ImageError> = withoutActuallyEscaping(checkpoint) { escapable in
            let box = CodecCheckpoint(escapable)
            do throws(ImageError) {
                return .success(try body(box))
            } catch {
                return .failure(box.stopError ?? error)
            }
        }
        return try outcome.get()
    }

    private init(_ checkpoint: @escaping () throws(ImageError) -> Void) {
        self.checkpoint = checkpoint
    }

    /// Whether the encode or decode should stop: the checkpoint threw, now or before.
    func shouldStop() -> Bool { stopErrorAfterAsking() != nil }

    /// Calls the checkpoint, throwing what it throws.
    func check() throws(ImageError) {
        if let error = stopErrorAfterAsking() { throw error }
    }

    /// Asks the checkpoint unless it has already thrown, and answers what it threw, if it did.
    private func stopErrorAfterAsking() -> ImageError? {
        state.withLock { stopped in
            guard stopped == nil else { return stopped }
            do throws(ImageError) {
                try checkpoint()
            } catch {
                stopped = error
            }
            return stopped
        }
    }

    /// What the checkpoint threw, if it did.
    var stopError: ImageError? { state.withLock { $0 } }
}

import Synchronization

/// A caller's checkpoint lent to a codec's C callbacks for one encode: libwebp's progress hook and
/// the libjxl runner ask ``shouldStop()`` and give up when it says so; the encoder then throws the
/// error the checkpoint threw, not the library's own failure.
///
/// The callbacks may come from several threads (a runner called inside another's run), so the
/// checkpoint is called under a lock, one call at a time; the closure needs no `Sendable` of its
/// own for that.
final class EncodingCheckpoint: @unchecked Sendable {
    private let state: Mutex<ImageError?> = Mutex(nil)
    private let checkpoint: () throws(ImageError) -> Void

    /// Runs `body` with a box around `checkpoint`, valid for the call only.
    static func with<Result>(
        _ checkpoint: () throws(ImageError) -> Void, _ body: (EncodingCheckpoint) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        let outcome: Swift.Result<Result, ImageError> = withoutActuallyEscaping(checkpoint) { escapable in
            let box = EncodingCheckpoint(escapable)
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

    /// Whether the encode should stop: the checkpoint threw, now or before.
    func shouldStop() -> Bool {
        state.withLock { stopped in
            guard stopped == nil else { return true }
            do throws(ImageError) {
                try checkpoint()
                return false
            } catch {
                stopped = error
                return true
            }
        }
    }

    /// Calls the checkpoint, throwing what it throws.
    func check() throws(ImageError) {
        if shouldStop(), let error = stopError { throw error }
    }

    /// What the checkpoint threw, if it did.
    var stopError: ImageError? { state.withLock { $0 } }
}

public import Dispatch

/// Background work for one target where only the newest result counts (YYAsyncLayer's display
/// task).
///
/// ``start(_:publish:)`` runs `work` on a queue pool and hands its result to `publish` on the
/// delivery target. Starting again supersedes what runs: the older work sees
/// `isCancelled()` turn true (a ``Sentinel`` moved) and its result, if it still makes one, is
/// dropped; it is never published once a newer start happened. Use one instance per target
/// (a view, a layer, a cell).
///
/// ```swift
/// let render = SupersedingWork<Bitmap>(deliveringOn: .main)
/// render.start({ isCancelled in
///     var canvas = Canvas(size)
///     for line in text.lines { if isCancelled() { return nil }; canvas.draw(line) }
///     return canvas.bitmap
/// }, publish: { bitmap in layer.contents = bitmap })
/// ```
public final class SupersedingWork<Result: Sendable>: Sendable {
    /// Where results are published.
    public let delivery: SerialTarget
    private let pool: DispatchQueuePool
    private let sentinel = Sentinel()

    /// Work that runs on `pool` (the shared user-initiated pool by default) and publishes on
    /// `delivery`.
    public init(deliveringOn delivery: SerialTarget = .main, pool: DispatchQueuePool = .shared(for: .userInitiated)) {
        self.delivery = delivery
        self.pool = pool
    }

    /// Starts `work`, superseding any work started before.
    /// - Parameters:
    ///   - work: makes the result; `nil` publishes nothing. It should check `isCancelled` where
    ///     stopping early saves time.
    ///   - publish: receives the result on ``delivery`` unless newer work started by then.
    public func start(
        _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) -> Result?,
        publish: @escaping @Sendable (Result) -> Void
    ) {
        let sentinel = self.sentinel
        let ticket = sentinel.increase()
        let isCancelled: @Sendable () -> Bool = { sentinel.value != ticket }
        let delivery = self.delivery
        pool.queue.async {
            guard !isCancelled(), let result = work(isCancelled), !isCancelled() else { return }
            delivery.schedule {
                // Checked on the delivery target, just before publishing: a start that came
                // after this point publishes after this result, never before it.
                guard !isCancelled() else { return }
                publish(result)
            }
        }
    }

    /// Supersedes running work without starting new work: nothing started so far publishes.
    public func cancel() {
        sentinel.increase()
    }
}

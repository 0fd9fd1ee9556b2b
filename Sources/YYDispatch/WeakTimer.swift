public import Dispatch

/// A dispatch timer that holds its target weakly and stops by itself once the target is gone.
///
/// This is what YYWeakProxy + YYTimer were for: an object can own a repeating timer that calls back
/// into it without the timer keeping the object alive. When the target is deallocated the next tick
/// cancels the timer; the owner may also call ``invalidate()`` in its `deinit`.
///
/// ```swift
/// timer = WeakTimer(interval: .seconds(5), target: self) { cache in cache.trimAutomatically() }
/// ```
public final class WeakTimer: Sendable {
    /// The time between two ticks.
    public let interval: Duration
    /// Whether the timer fires again after each tick.
    public let repeats: Bool

    private let source: Locked<SourceHandle?>
    private let tick: @Sendable () -> Bool

    /// Creates and starts a timer that calls `action(target)` every `interval` on `queue`.
    ///
    /// - Parameters:
    ///   - interval: time to the first tick and between ticks; values below 1 ms are raised to 1 ms.
    ///   - repeats: `false` for a one-shot timer.
    ///   - queue: where `action` runs.
    ///   - target: held weakly; once it is deallocated the timer cancels itself.
    ///   - action: called with the target while the target is alive.
    public init<Target: AnyObject & Sendable>(
        interval: Duration,
        repeats: Bool = true,
        queue: DispatchQueue = .global(qos: .utility),
        target: Target,
        action: @escaping @Sendable (Target) -> Void
    ) {
        self.interval = max(interval, .milliseconds(1))
        self.repeats = repeats
        // The tick closure owns only a weak reference; it reports whether the target still exists.
        let tick: @Sendable () -> Bool = { [weak target] in
            guard let target else { return false }
            action(target)
            return true
        }
        self.tick = tick
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Self.nanoseconds(of: self.interval)
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds),
            repeating: repeats ? .nanoseconds(nanoseconds) : .never,
            leeway: .nanoseconds(max(nanoseconds / 10, 1_000_000))
        )
        source = Locked(SourceHandle(timer: timer))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            if !tick() || !self.repeats { self.invalidate() }
        }
        timer.resume()
    }

    deinit {
        invalidate()
    }

    /// Whether the timer is still scheduled.
    public var isValid: Bool {
        source.withLock { $0 != nil }
    }

    /// Runs the action now, on the caller's thread, without changing the schedule.
    /// A one-shot timer is invalidated by it; a timer whose target is gone too.
    public func fire() {
        guard isValid else { return }
        if !tick() || !repeats { invalidate() }
    }

    /// Stops the timer. Safe to call more than once and from any thread.
    public func invalidate() {
        let handle = source.withLock { current -> SourceHandle? in
            defer { current = nil }
            return current
        }
        guard let timer = handle?.timer else { return }
        timer.setEventHandler(handler: nil)
        timer.cancel()
    }

    /// Dispatch sources are thread-safe objects, but corelibs-dispatch does not mark them `Sendable`.
    private struct SourceHandle: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }

    private static func nanoseconds(of duration: Duration) -> Int {
        Int(min(duration.saturatingNanoseconds, Int64(Int.max / 2)))
    }
}

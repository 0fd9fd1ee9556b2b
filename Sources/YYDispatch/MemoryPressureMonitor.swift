import Foundation

/// Something that can give memory back when the process runs short, such as YYCache's
/// `MemoryCache` or YYImage's `AnimatedImagePlayer`.
///
/// The monitor calls ``handleMemoryPressure()`` on a background queue, so conforming types must
/// make it safe to call from any thread.
public protocol MemoryPressureHandling: AnyObject {
    /// Frees what can be freed. Called on a background queue.
    func handleMemoryPressure()
}

/// Watches the memory figures of the process's cgroup (v2 or v1: its own or an ancestor's, such
/// as a container's or a systemd unit's) or, without a limit there, of the machine
/// (`/proc/meminfo`), and tells registered handlers when the available share falls below a
/// threshold.
///
/// Linux has no memory-warning notification, so this polls. Handlers are held weakly and called
/// once per crossing (again only after the reading has recovered above the threshold).
///
/// ```swift
/// let monitor = MemoryPressureMonitor(threshold: 0.1)
/// monitor.register(imageCache)
/// monitor.start()
/// ```
public final class MemoryPressureMonitor: @unchecked Sendable {
    /// One reading of memory figures, in bytes.
    public struct Reading: Sendable, Equatable {
        /// Bytes that can still be used before the limit.
        public var available: Int64
        /// The limit: the cgroup's `memory.max` or the machine's total memory.
        public var limit: Int64
        /// `available / limit`, between 0 and 1.
        public var availableFraction: Double {
            limit > 0 ? min(max(Double(available) / Double(limit), 0), 1) : 1
        }

        /// Creates a reading.
        public init(available: Int64, limit: Int64) {
            self.available = available
            self.limit = limit
        }
    }

    /// The interval between two readings.
    public let interval: Duration
    /// The available fraction below which handlers are called.
    public let threshold: Double
    private let reader: @Sendable () -> Reading?
    /// `@unchecked Sendable` above: the handlers it holds are only called, never shared otherwise.
    private let state = Locked(MonitorState())

    private struct MonitorState {
        var handlers: [WeakHandler] = []
        var timer: WeakTimer?
        var underPressure = false
    }

    private struct WeakHandler {
        weak var handler: (any MemoryPressureHandling)?
    }

    /// Creates a monitor; call ``start()`` to begin polling.
    ///
    /// - Parameters:
    ///   - interval: time between readings (default 1 second).
    ///   - threshold: call handlers when the available share drops below this (default 0.1 = 10 %).
    ///   - reader: where readings come from; the default reads cgroup files or `/proc/meminfo`.
    public init(
        interval: Duration = .seconds(1),
        threshold: Double = 0.1,
        reader: @escaping @Sendable () -> Reading? = MemoryPressureMonitor.systemReading
    ) {
        self.interval = interval
        self.threshold = threshold
        self.reader = reader
    }

    deinit {
        state.withLock { $0.timer?.invalidate() }
    }

    /// Adds a handler, held weakly. Registering one already registered changes nothing: it is
    /// called once per crossing however many times it was registered.
    public func register(_ handler: any MemoryPressureHandling) {
        state.withLock { state in
            state.handlers.removeAll { $0.handler == nil }
            guard !state.handlers.contains(where: { $0.handler === handler }) else { return }
            state.handlers.append(WeakHandler(handler: handler))
        }
    }

    /// Stops calling `handler`; nothing happens if it was not registered.
    public func unregister(_ handler: any MemoryPressureHandling) {
        state.withLock { state in
            state.handlers.removeAll { $0.handler == nil || $0.handler === handler }
        }
    }

    /// Starts polling. Calling it again has no effect.
    public func start() {
        state.withLock { state in
            guard state.timer == nil else { return }
            state.timer = WeakTimer(interval: interval, target: self) { $0.check() }
        }
    }

    /// Stops polling.
    public func stop() {
        state.withLock { state in
            state.timer?.invalidate()
            state.timer = nil
        }
    }

    /// Takes one reading now and calls the handlers if it crosses the threshold.
    /// Returns whether the handlers were called.
    @discardableResult
    public func check() -> Bool {
        guard let reading = reader() else { return false }
        let pressed = reading.availableFraction < threshold
        let handlers = state.withLock { state -> [any MemoryPressureHandling] in
            defer { state.underPressure = pressed }
            guard pressed, !state.underPressure else { return [] }
            state.handlers.removeAll { $0.handler == nil }
            return state.handlers.compactMap(\.handler)
        }
        // Handlers run outside the lock: they may register or check again.
        for handler in handlers { handler.handleMemoryPressure() }
        return !handlers.isEmpty
    }

    // MARK: Readings

    /// The memory figures of this process's cgroup (v2, then v1), or of the nearest ancestor with
    /// a limit (a systemd unit's `MemoryMax=`, a container's), else of the machine
    /// (`/proc/meminfo`); `nil` where none of those files exists (off Linux).
    public static let systemReading: @Sendable () -> Reading? = { SystemMemory.reading() }
}

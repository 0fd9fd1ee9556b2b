/// A thread-safe set of observers held weakly (NSHashTable with weak objects, as YYKit keeps
/// its observers).
///
/// An observer released elsewhere simply disappears: iteration skips it and the table drops
/// its slot. Adding an observer twice or removing an absent one does nothing. Observers are
/// called outside the table's lock, in the order they were added, so an observer may add or
/// remove observers (itself included) while it is being called.
///
/// ```swift
/// let observers = WeakObserverTable<Listener>()
/// observers.add(listener)
/// observers.forEach { $0.memoryWarning() }
/// ```
public final class WeakObserverTable<Observer: AnyObject & Sendable>: Sendable {
    private let slots = Locked(WeakObserverSlots<Observer>())

    /// An empty table.
    public init() {}

    /// Adds `observer` unless it is in the table already.
    /// - Returns: whether it was added.
    @discardableResult
    public func add(_ observer: Observer) -> Bool {
        let (added, release) = slots.withLock { $0.add(observer) }
        // Strong references the table loaded, dropped outside the lock: if one was the last,
        // the observer's `deinit` (which may well remove it from this table) runs here instead
        // of deadlocking on the lock.
        withExtendedLifetime(release) {}
        return added
    }

    /// Removes `observer` if it is in the table.
    /// - Returns: whether it was there.
    @discardableResult
    public func remove(_ observer: Observer) -> Bool {
        slots.withLock { $0.remove(observer) }
    }

    /// Whether `observer` is in the table.
    public func contains(_ observer: Observer) -> Bool {
        slots.withLock { $0.contains(observer) }
    }

    /// The observers still alive, in the order they were added.
    public var allObservers: [Observer] {
        // Released after the lock (see `add(_:)`), by the caller.
        slots.withLock { $0.sweep() }
    }

    /// The number of observers still alive.
    public var count: Int { allObservers.count }

    /// Calls `body` with every observer still alive, outside the lock.
    public func forEach(_ body: (Observer) throws -> Void) rethrows {
        for observer in allObservers { try body(observer) }
    }
}

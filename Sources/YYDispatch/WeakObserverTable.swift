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
    /// A weak slot. `weak` references are safe to read from any thread.
    private struct Slot: @unchecked Sendable {
        // @unchecked: a weak reference to a Sendable object; the runtime makes its reads atomic.
        weak var observer: Observer?
    }

    private let slots = Locked<[Slot]>([])

    /// An empty table.
    public init() {}

    /// Adds `observer` unless it is in the table already.
    /// - Returns: whether it was added.
    @discardableResult
    public func add(_ observer: Observer) -> Bool {
        withCompactedSlots { slots, alive in
            guard !alive.contains(where: { $0 === observer }) else { return false }
            slots.append(Slot(observer: observer))
            return true
        }
    }

    /// Removes `observer` if it is in the table.
    /// - Returns: whether it was there.
    @discardableResult
    public func remove(_ observer: Observer) -> Bool {
        withCompactedSlots { slots, alive in
            guard let index = alive.firstIndex(where: { $0 === observer }) else { return false }
            // After compaction, slot i holds alive[i].
            slots.remove(at: index)
            return true
        }
    }

    /// Whether `observer` is in the table.
    public func contains(_ observer: Observer) -> Bool {
        withCompactedSlots { _, alive in alive.contains { $0 === observer } }
    }

    /// The observers still alive, in the order they were added.
    public var allObservers: [Observer] {
        withCompactedSlots { _, alive in alive }
    }

    /// The number of observers still alive.
    public var count: Int { allObservers.count }

    /// Calls `body` with every observer still alive, outside the lock.
    public func forEach(_ body: (Observer) throws -> Void) rethrows {
        for observer in allObservers { try body(observer) }
    }

    /// Runs `body` under the lock with the slots of released observers dropped and the live
    /// observers at hand. Those strong references are released only after the lock is: if one
    /// was the last, the observer's `deinit` (which may well remove it from this table) runs
    /// outside the lock instead of deadlocking on it.
    private func withCompactedSlots<T>(_ body: (inout [Slot], [Observer]) -> T) -> T {
        let (result, alive) = slots.withLock { slots -> (T, [Observer]) in
            let alive = slots.compactMap(\.observer)
            if alive.count < slots.count { slots = alive.map { Slot(observer: $0) } }
            return (body(&slots, alive), alive)
        }
        withExtendedLifetime(alive) {}
        return result
    }
}

/// The storage of a ``WeakObserverTable``: weak slots in the order added, and where each
/// observer's slot is, so that adding, removing and finding an observer are O(1) (amortized).
///
/// No call scans every slot, so adding n observers is O(n), not the n²/2 weak loads, retains and
/// releases a scan per call would cost.
///
/// Loading a weak reference gives a strong one, and dropping it may release an observer whose
/// last other reference went meanwhile; its `deinit` must not run under the table's lock. So the
/// methods that load references of observers other than the caller's return them, for the
/// caller to drop after unlocking.
struct WeakObserverSlots<Observer: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked: weak references to Sendable objects; the runtime makes their loads atomic.

    private struct Slot {
        /// The observer's identity when added: a key that needs no load of the reference.
        let id: ObjectIdentifier
        weak var observer: Observer?
    }

    /// In the order added; `nil` where an observer was removed.
    private var ordered: [Slot?] = []
    /// The index in `ordered` of each observer's slot (perhaps of a released observer whose
    /// address a new object now has: its slot's reference is then `nil`).
    private var positions: [ObjectIdentifier: Int] = [:]
    /// How many entries of `ordered` are `nil`.
    private var removedCount = 0
    /// How many slots there were after the last sweep of released observers.
    private var countAfterSweep = 0

    /// Whether `observer` has a slot.
    func contains(_ observer: Observer) -> Bool { position(of: observer) != nil }

    /// Adds `observer` unless it has a slot; returns whether it was added, and references to
    /// release after the lock.
    mutating func add(_ observer: Observer) -> (added: Bool, release: [Observer]) {
        guard position(of: observer) == nil else { return (false, []) }
        let id = ObjectIdentifier(observer)
        // A slot under this identity is a released observer's (its address was reused).
        if let stale = positions[id] { vacate(stale) }
        positions[id] = ordered.count
        ordered.append(Slot(id: id, observer: observer))
        // Released observers that nobody removed keep their slots until a sweep: sweep when the
        // slots have doubled since the last one, so that each costs O(1) on average.
        guard ordered.count - removedCount >= 2 * max(countAfterSweep, 16) else { return (true, []) }
        return (true, sweep())
    }

    /// Removes `observer`'s slot; returns whether it had one.
    mutating func remove(_ observer: Observer) -> Bool {
        guard let position = position(of: observer) else { return false }
        vacate(position)
        positions[ObjectIdentifier(observer)] = nil
        if removedCount > 16 && removedCount * 2 > ordered.count { dropRemovedSlots() }
        return true
    }

    /// The observers still alive, in the order added, with the slots of released ones dropped.
    mutating func sweep() -> [Observer] {
        var alive: [Observer] = []
        alive.reserveCapacity(ordered.count - removedCount)
        var kept: [Slot?] = []
        kept.reserveCapacity(ordered.count - removedCount)
        for case let slot? in ordered {
            guard let observer = slot.observer else { continue }
            alive.append(observer)
            kept.append(slot)
        }
        if kept.count != ordered.count {
            ordered = kept
            removedCount = 0
            reindex()
        }
        countAfterSweep = ordered.count
        return alive
    }

    /// Slots kept (live, or released and not swept yet), removed ones not counted: for tests.
    var slotCount: Int { ordered.count - removedCount }

    /// The index of `observer`'s slot, if it has one. The load gives either `nil` (a released
    /// observer's slot) or `observer` itself, which the caller holds: it releases nothing.
    private func position(of observer: Observer) -> Int? {
        guard let position = positions[ObjectIdentifier(observer)], ordered[position]?.observer === observer else { return nil }
        return position
    }

    private mutating func vacate(_ position: Int) {
        ordered[position] = nil
        removedCount += 1
    }

    /// Drops the `nil` entries of `ordered` (no reference is loaded: identities are in the slots).
    private mutating func dropRemovedSlots() {
        ordered.removeAll { $0 == nil }
        removedCount = 0
        reindex()
    }

    /// `positions` from `ordered`, which has no `nil` entry. An identity has one slot that is
    /// not `nil` (a newer observer at a released one's address vacated the old slot).
    private mutating func reindex() {
        positions = Dictionary(ordered.enumerated().map { ($1!.id, $0) }, uniquingKeysWith: { _, newer in newer })
    }
}

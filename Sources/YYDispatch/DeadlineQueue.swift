// Package import: the queue is inlinable (see below), so its heap's type must be visible where it
// is specialised.
package import HeapModule

/// Payloads waiting for their deadlines, earliest first: what a timer thread or a watcher task
/// keeps to know what to wake next and when.
///
/// Insertion and taking the earliest are O(log n); removal by id is O(1) amortised. Removal only
/// forgets the payload: its heap entry stays until it reaches the top (finding it in the heap would
/// be O(n)), and the heap is rebuilt without such entries when they are most of it, so it never
/// holds much more than twice the live payloads. Equal deadlines come out in insertion order.
///
/// Everything is `@inlinable` so that it specialises for its payload in the caller's module:
/// unspecialised generic dictionary and heap code across the module boundary costs the player's
/// timer thread time on every frame (measured in `PlayerBenchmarks`).
///
/// Not thread-safe: its owner guards it (with the lock it keeps its other state under).
package struct DeadlineQueue<Payload> {
    /// Names an inserted payload, for ``remove(_:)``; never reused.
    package typealias ID = UInt64

    @usableFromInline var heap = Heap<DeadlineQueueEntry>()
    @usableFromInline var payloads: [ID: Payload] = [:]
    @usableFromInline var lastID: ID = 0

    /// An empty queue.
    @inlinable package init() {}

    /// The payloads waiting.
    @inlinable package var count: Int { payloads.count }

    /// Heap entries, those of removed payloads included (tests check that they stay bounded).
    @inlinable package var storedCount: Int { heap.count }

    /// Adds `payload`, due at `deadline`; returns its id.
    @inlinable
    package mutating func insert(_ payload: Payload, at deadline: ContinuousClock.Instant) -> ID {
        lastID += 1
        payloads[lastID] = payload
        heap.insert(DeadlineQueueEntry(deadline: deadline, id: lastID))
        return lastID
    }

    /// Forgets the payload of `id` and returns it (`nil` if it was taken or removed already), so
    /// that the caller can release it after its lock.
    @inlinable @discardableResult
    package mutating func remove(_ id: ID) -> Payload? {
        guard let payload = payloads.removeValue(forKey: id) else { return nil }
        if heap.count > 64, heap.count > 2 * payloads.count {
            let live = payloads
            heap = Heap(heap.unordered.filter { live[$0.id] != nil })
        }
        return payload
    }

    /// Takes the payload with the earliest deadline if that deadline is at or before `now`.
    @inlinable
    package mutating func popFirst(dueBy now: ContinuousClock.Instant) -> Payload? {
        dropRemovedEntries()
        guard let first = heap.min, first.deadline <= now else { return nil }
        heap.removeMin()
        return payloads.removeValue(forKey: first.id)
    }

    /// The earliest deadline of a waiting payload, or `nil` when none waits.
    @inlinable
    package mutating func earliestDeadline() -> ContinuousClock.Instant? {
        dropRemovedEntries()
        return heap.min?.deadline
    }

    /// Pops the entries at the top whose payloads were removed, so that the top is live.
    @inlinable
    mutating func dropRemovedEntries() {
        while let first = heap.min, payloads[first.id] == nil { heap.removeMin() }
    }
}

extension DeadlineQueue: Sendable where Payload: Sendable {}

/// A deadline in a ``DeadlineQueue``'s heap, by the id of its payload. Outside the generic queue
/// so that the heap's type does not depend on the payload's.
@usableFromInline
struct DeadlineQueueEntry: Comparable, Sendable {
    @usableFromInline let deadline: ContinuousClock.Instant
    @usableFromInline let id: UInt64

    @inlinable init(deadline: ContinuousClock.Instant, id: UInt64) {
        self.deadline = deadline
        self.id = id
    }

    @inlinable static func < (lhs: DeadlineQueueEntry, rhs: DeadlineQueueEntry) -> Bool {
        (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
    }
}

import HeapModule

/// Payloads waiting for their deadlines, earliest first: what a timer thread or a watcher task
/// keeps to know what to wake next and when.
///
/// Insertion and taking the earliest are O(log n); removal by id is O(1) amortised. Removal only
/// forgets the payload: its heap entry stays until it reaches the top (finding it in the heap would
/// be O(n)), and the heap is rebuilt without such entries when they are most of it, so it never
/// holds much more than twice the live payloads. Equal deadlines come out in insertion order.
///
/// Not thread-safe: its owner guards it (with the lock it keeps its other state under).
package struct DeadlineQueue<Payload> {
    /// Names an inserted payload, for ``remove(_:)``; never reused.
    package typealias ID = UInt64

    private struct Entry: Comparable {
        let deadline: ContinuousClock.Instant
        let id: ID

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.deadline, lhs.id) < (rhs.deadline, rhs.id)
        }
    }

    private var heap = Heap<Entry>()
    private var payloads: [ID: Payload] = [:]
    private var lastID: ID = 0

    /// An empty queue.
    package init() {}

    /// The payloads waiting.
    package var count: Int { payloads.count }

    /// Heap entries, those of removed payloads included (tests check that they stay bounded).
    package var storedCount: Int { heap.count }

    /// Adds `payload`, due at `deadline`; returns its id.
    package mutating func insert(_ payload: Payload, at deadline: ContinuousClock.Instant) -> ID {
        lastID += 1
        payloads[lastID] = payload
        heap.insert(Entry(deadline: deadline, id: lastID))
        return lastID
    }

    /// Forgets the payload of `id` and returns it (`nil` if it was taken or removed already), so
    /// that the caller can release it after its lock.
    @discardableResult
    package mutating func remove(_ id: ID) -> Payload? {
        guard let payload = payloads.removeValue(forKey: id) else { return nil }
        if heap.count > 64, heap.count > 2 * payloads.count {
            let live = payloads
            heap = Heap(heap.unordered.filter { live[$0.id] != nil })
        }
        return payload
    }

    /// Takes the payload with the earliest deadline if that deadline is at or before `now`.
    package mutating func popFirst(dueBy now: ContinuousClock.Instant) -> Payload? {
        dropRemovedEntries()
        guard let first = heap.min, first.deadline <= now else { return nil }
        heap.removeMin()
        return payloads.removeValue(forKey: first.id)
    }

    /// The earliest deadline of a waiting payload, or `nil` when none waits.
    package mutating func earliestDeadline() -> ContinuousClock.Instant? {
        dropRemovedEntries()
        return heap.min?.deadline
    }

    /// Pops the entries at the top whose payloads were removed, so that the top is live.
    private mutating func dropRemovedEntries() {
        while let first = heap.min, payloads[first.id] == nil { heap.removeMin() }
    }
}

extension DeadlineQueue: Sendable where Payload: Sendable {}

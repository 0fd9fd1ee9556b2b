/// A hash map plus a doubly linked list in recency order.
///
/// - Complexity: O(1) lookup, insert, touch and eviction; ``expiredPositions(at:)`` and
///   ``invariantViolations()`` are O(n).
///
/// The list lives in arrays indexed by 32-bit slot numbers instead of one heap object per entry
/// (YYMemoryCache's `_YYLinkedMapNode`): no allocation and no reference counting per node, and
/// freed slots are reused. `head` is the most recently used entry, `tail` the least.
///
/// The layout follows what a hit touches. The value sits in the dictionary beside its slot number,
/// so the lookup that finds the slot also yields the value. Moving the entry to the head touches
/// three links (the entry's and its neighbours'); links are 16 bytes (with the access time, which
/// a hit writes anyway), four to a cache line. Key, cost and expiry, needed only to insert, evict
/// or check an expiring entry, sit in a third array.
///
/// Not thread-safe; ``MemoryCache`` guards it with a lock. Everything is `@inlinable` so that the
/// cache specialises for its `Key` and `Value` in the caller's module (generic code called across
/// a module boundary otherwise runs unspecialised, several times slower).
@usableFromInline
struct LRUList<Key: Hashable, Value> {
    @usableFromInline typealias Index = Int32
    @inlinable static var none: Index { -1 }

    /// What the dictionary holds for a key.
    @usableFromInline
    struct Slot {
        @usableFromInline var position: Index
        @usableFromInline var value: Value

        @inlinable init(position: Index, value: Value) {
            self.position = position
            self.value = value
        }
    }

    /// What ``remove(_:)`` hands back: the value and the key it was stored under. The key goes out
    /// with the value so that the last reference to both is dropped by the caller, after the
    /// cache's lock (a key's `deinit` is user code as much as a value's).
    @usableFromInline typealias Removed = (key: Key, value: Value)

    @usableFromInline
    struct Entry {
        /// `nil` marks a free slot.
        @usableFromInline var key: Key?
        @usableFromInline var cost: Int
        /// Monotonic deadline after which the entry is gone; `UInt64.max` for none.
        @usableFromInline var expiry: UInt64

        @inlinable init(key: Key?, cost: Int, expiry: UInt64) {
            self.key = key
            self.cost = cost
            self.expiry = expiry
        }
    }

    @usableFromInline
    struct Link {
        @usableFromInline var previous: Index
        @usableFromInline var next: Index
        /// Monotonic time of the last read or write, in nanoseconds.
        @usableFromInline var accessTime: UInt64

        @inlinable init(previous: Index, next: Index, accessTime: UInt64) {
            self.previous = previous
            self.next = next
            self.accessTime = accessTime
        }
    }

    @usableFromInline var index: [Key: Slot] = [:]
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var links: [Link] = []
    @usableFromInline var freeSlots: [Index] = []
    @usableFromInline var head: Index = none
    @usableFromInline var tail: Index = none
    /// The sum of the entries' costs. 128 bits: each cost is at most `Int.max` and there are at
    /// most `Int32.max` entries, so no sum can overflow (two entries of cost `Int.max` trapped an
    /// `Int`).
    @usableFromInline var totalCost: Int128 = 0
    /// How many live entries carry an expiry; when zero, hits skip the expiry check entirely.
    @usableFromInline var expiringCount = 0
    #if DEBUG
    /// Set by tests: ``invariantViolations()`` walks the whole list after every mutation (O(n)
    /// each time) and a violation stops the process.
    @usableFromInline var verifiesEveryMutation = false
    #endif

    @inlinable var count: Int { index.count }

    @inlinable init() {}

    /// The slot and value for `key`, from one hash lookup.
    @inlinable
    func lookup(_ key: Key) -> Slot? {
        index[key]
    }

    /// Whether the entry at `position` has expired at `time`.
    @inlinable
    func isExpired(_ position: Index, at time: UInt64) -> Bool {
        expiringCount > 0 && entries[Int(position)].expiry <= time
    }

    /// Whether `key` is present and unexpired at the time `now()` gives (read only if needed).
    @inlinable
    func containsLive(_ key: Key, now: () -> UInt64) -> Bool {
        guard let slot = index[key] else { return false }
        return expiringCount == 0 || entries[Int(slot.position)].expiry > now()
    }

    /// The access time of a live slot.
    @inlinable
    func accessTime(at position: Index) -> UInt64 {
        links[Int(position)].accessTime
    }

    /// Marks the entry as just used: updates its time and moves it to the head.
    @inlinable
    mutating func touch(_ position: Index, at time: UInt64) {
        links[Int(position)].accessTime = time
        guard position != head else { return }
        unlink(position)
        linkAtHead(position)
        afterMutation()
    }

    /// Stores `value` for `key` as the most recently used entry, with one hash lookup; returns the
    /// value it replaced, if any.
    @inlinable
    mutating func upsert(key: Key, value: Value, cost: Int, time: UInt64, expiry: UInt64) -> Value? {
        if let found = index.index(forKey: key) {
            let position = index.values[found].position
            let old = index.values[found].value
            index.values[found].value = value
            let i = Int(position)
            totalCost += Int128(cost) - Int128(entries[i].cost)
            expiringCount += (expiry != .max ? 1 : 0) - (entries[i].expiry != .max ? 1 : 0)
            entries[i].cost = cost
            entries[i].expiry = expiry
            touch(position, at: time)
            afterMutation()
            return old
        }
        let entry = Entry(key: key, cost: cost, expiry: expiry)
        let position: Index
        if let reused = freeSlots.popLast() {
            position = reused
            entries[Int(position)] = entry
        } else {
            precondition(entries.count < Int(Index.max), "LRUList holds at most Int32.max entries")
            position = Index(entries.count)
            entries.append(entry)
            links.append(Link(previous: Self.none, next: Self.none, accessTime: time))
        }
        index[key] = Slot(position: position, value: value)
        links[Int(position)].accessTime = time
        totalCost += Int128(cost)
        if expiry != .max { expiringCount += 1 }
        linkAtHead(position)
        afterMutation()
        return nil
    }

    /// Removes an entry and returns its key and value.
    @inlinable @discardableResult
    mutating func remove(_ position: Index) -> Removed? {
        let i = Int(position)
        unlink(position)
        let removed = entries[i].key.flatMap { key in
            index.removeValue(forKey: key).map { (key, $0.value) }
        }
        totalCost -= Int128(entries[i].cost)
        if entries[i].expiry != .max { expiringCount -= 1 }
        entries[i] = Entry(key: nil, cost: 0, expiry: .max)
        freeSlots.append(position)
        checkInvariants()
        afterMutation()
        return removed
    }

    /// Removes the least recently used entry and returns its key and value.
    @inlinable
    mutating func removeTail() -> Removed? {
        guard tail != Self.none else { return nil }
        return remove(tail)
    }

    /// Empties the list, returning the old storage so that the caller can release it elsewhere.
    @inlinable
    mutating func removeAll() -> LRUList {
        let old = self
        self = LRUList()
        return old
    }

    /// Positions whose expiry is at or before `time`.
    @inlinable
    func expiredPositions(at time: UInt64) -> [Index] {
        guard expiringCount > 0 else { return [] }
        var result: [Index] = []
        for (i, entry) in entries.enumerated() where entry.key != nil && entry.expiry <= time {
            result.append(Index(i))
        }
        return result
    }

    @inlinable
    mutating func linkAtHead(_ position: Index) {
        links[Int(position)].previous = Self.none
        links[Int(position)].next = head
        if head != Self.none { links[Int(head)].previous = position }
        head = position
        if tail == Self.none { tail = position }
    }

    @inlinable
    mutating func unlink(_ position: Index) {
        let link = links[Int(position)]
        if link.previous != Self.none { links[Int(link.previous)].next = link.next } else { head = link.next }
        if link.next != Self.none { links[Int(link.next)].previous = link.previous } else { tail = link.previous }
        links[Int(position)].previous = Self.none
        links[Int(position)].next = Self.none
    }

    /// Debug-only consistency check of the cheap invariants.
    @inlinable
    func checkInvariants() {
        assert((head == Self.none) == (tail == Self.none), "head and tail must be empty together")
        assert(index.count + freeSlots.count == entries.count, "every slot is either live or free")
        assert(entries.count == links.count, "one link per slot")
    }

    /// Runs the full check when a test asked for it (debug builds only; nothing in release).
    @inlinable
    func afterMutation() {
        #if DEBUG
        if verifiesEveryMutation {
            let violations = invariantViolations()
            precondition(violations.isEmpty, "LRUList invariants broken: \(violations)")
        }
        #endif
    }

    /// Every invariant, checked by walking the whole list: the links run both ways from `head` to
    /// `tail` through every live slot and nothing else, access times never increase along the way,
    /// the index points at the slots holding its keys, and `totalCost` and `expiringCount` are the
    /// sums they cache. Empty when all hold. O(n).
    @usableFromInline
    func invariantViolations() -> [String] {
        var violations: [String] = []
        var walked = 0, expiring = 0
        var cost: Int128 = 0
        var previous = Self.none
        var position = head
        var lastTime = UInt64.max
        while position != Self.none, walked <= entries.count {
            let i = Int(position)
            if links[i].previous != previous { violations.append("slot \(i): previous is \(links[i].previous), not \(previous)") }
            if links[i].accessTime > lastTime { violations.append("slot \(i): used later than the slot before it") }
            if let key = entries[i].key {
                if index[key]?.position != position { violations.append("slot \(i): its key points elsewhere in the index") }
            } else {
                violations.append("slot \(i): free but linked")
            }
            cost += Int128(entries[i].cost)
            if entries[i].expiry != .max { expiring += 1 }
            lastTime = links[i].accessTime
            walked += 1
            previous = position
            position = links[i].next
        }
        if previous != tail { violations.append("the walk ends at \(previous), not at tail \(tail)") }
        if walked != index.count { violations.append("\(walked) linked slots for \(index.count) keys") }
        if cost != totalCost { violations.append("costs add up to \(cost), not totalCost \(totalCost)") }
        if expiring != expiringCount { violations.append("\(expiring) expiring entries, not expiringCount \(expiringCount)") }
        if Set(freeSlots).count != freeSlots.count { violations.append("a free slot is listed twice") }
        if freeSlots.contains(where: { entries[Int($0)].key != nil }) { violations.append("a free slot holds a key") }
        return violations
    }
}

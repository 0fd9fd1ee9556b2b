/// A hash map plus a doubly linked list in recency order: O(1) lookup, insert, touch and eviction.
///
/// The list lives in arrays indexed by 32-bit slot numbers instead of one heap object per entry
/// (YYMemoryCache's `_YYLinkedMapNode`): no allocation and no reference counting per node, and
/// freed slots are reused. `head` is the most recently used entry, `tail` the least.
///
/// The links are kept apart from the entries: moving an entry to the head touches three links
/// (the entry's and its two neighbours'), and 8-byte links pack eight to a cache line where whole
/// entries would take one line each. With 200,000 entries the links fit in 1.6 MB.
///
/// Not thread-safe; ``MemoryCache`` guards it with a lock. Everything is `@inlinable` so that the
/// cache specialises for its `Key` and `Value` in the caller's module (generic code called across
/// a module boundary otherwise runs unspecialised, several times slower).
@usableFromInline
struct LRUList<Key: Hashable, Value> {
    @usableFromInline typealias Index = Int32
    @inlinable static var none: Index { -1 }

    @usableFromInline
    struct Entry {
        /// `nil` marks a free slot.
        @usableFromInline var key: Key?
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        /// Monotonic time of the last read or write, in nanoseconds.
        @usableFromInline var accessTime: UInt64
        /// Monotonic deadline after which the entry is gone; `UInt64.max` for none.
        @usableFromInline var expiry: UInt64

        @inlinable
        init(key: Key?, value: Value?, cost: Int, accessTime: UInt64, expiry: UInt64) {
            self.key = key
            self.value = value
            self.cost = cost
            self.accessTime = accessTime
            self.expiry = expiry
        }
    }

    @usableFromInline
    struct Link {
        @usableFromInline var previous: Index
        @usableFromInline var next: Index

        @inlinable init(previous: Index, next: Index) {
            self.previous = previous
            self.next = next
        }
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var links: [Link] = []
    @usableFromInline var freeSlots: [Index] = []
    @usableFromInline var index: [Key: Index] = [:]
    @usableFromInline var head: Index = none
    @usableFromInline var tail: Index = none
    @usableFromInline var totalCost = 0
    /// How many live entries carry an expiry; lets the periodic sweep skip the scan when zero.
    @usableFromInline var expiringCount = 0

    @inlinable var count: Int { index.count }

    @inlinable init() {}

    @inlinable
    func slot(for key: Key) -> Index? {
        index[key]
    }

    /// The expiry of a live slot.
    @inlinable
    func expiry(at slot: Index) -> UInt64 {
        entries[Int(slot)].expiry
    }

    /// The access time of a live slot.
    @inlinable
    func accessTime(at slot: Index) -> UInt64 {
        entries[Int(slot)].accessTime
    }

    /// The value of a live slot.
    @inlinable
    func value(at slot: Index) -> Value? {
        entries[Int(slot)].value
    }

    /// Marks the entry as just used: updates its time and moves it to the head.
    @inlinable
    mutating func touch(_ slot: Index, at time: UInt64) {
        entries[Int(slot)].accessTime = time
        guard slot != head else { return }
        unlink(slot)
        linkAtHead(slot)
    }

    /// Replaces the value of an existing entry and moves it to the head; returns the old value.
    @inlinable
    mutating func replace(_ slot: Index, value: Value, cost: Int, time: UInt64, expiry: UInt64) -> Value? {
        let i = Int(slot)
        totalCost += cost - entries[i].cost
        expiringCount += (expiry != .max ? 1 : 0) - (entries[i].expiry != .max ? 1 : 0)
        let old = entries[i].value
        entries[i].value = value
        entries[i].cost = cost
        entries[i].expiry = expiry
        touch(slot, at: time)
        return old
    }

    /// Inserts a new key at the head. The key must not be present.
    @inlinable
    mutating func insert(key: Key, value: Value, cost: Int, time: UInt64, expiry: UInt64) {
        assert(index[key] == nil, "insert of a key that is already present")
        let entry = Entry(key: key, value: value, cost: cost, accessTime: time, expiry: expiry)
        let slot: Index
        if let reused = freeSlots.popLast() {
            slot = reused
            entries[Int(slot)] = entry
        } else {
            precondition(entries.count < Int(Index.max), "LRUList holds at most Int32.max entries")
            slot = Index(entries.count)
            entries.append(entry)
            links.append(Link(previous: Self.none, next: Self.none))
        }
        index[key] = slot
        totalCost += cost
        if expiry != .max { expiringCount += 1 }
        linkAtHead(slot)
    }

    /// Removes an entry and returns its value.
    @inlinable @discardableResult
    mutating func remove(_ slot: Index) -> Value? {
        let i = Int(slot)
        unlink(slot)
        if let key = entries[i].key { index[key] = nil }
        totalCost -= entries[i].cost
        if entries[i].expiry != .max { expiringCount -= 1 }
        let value = entries[i].value
        entries[i] = Entry(key: nil, value: nil, cost: 0, accessTime: 0, expiry: .max)
        freeSlots.append(slot)
        checkInvariants()
        return value
    }

    /// Removes the least recently used entry and returns its value.
    @inlinable
    mutating func removeTail() -> Value? {
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

    /// Slots whose expiry is at or before `time`.
    @inlinable
    func expiredSlots(at time: UInt64) -> [Index] {
        guard expiringCount > 0 else { return [] }
        var result: [Index] = []
        for (i, entry) in entries.enumerated() where entry.key != nil && entry.expiry <= time {
            result.append(Index(i))
        }
        return result
    }

    @inlinable
    mutating func linkAtHead(_ slot: Index) {
        links[Int(slot)] = Link(previous: Self.none, next: head)
        if head != Self.none { links[Int(head)].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
    }

    @inlinable
    mutating func unlink(_ slot: Index) {
        let link = links[Int(slot)]
        if link.previous != Self.none { links[Int(link.previous)].next = link.next } else { head = link.next }
        if link.next != Self.none { links[Int(link.next)].previous = link.previous } else { tail = link.previous }
        links[Int(slot)] = Link(previous: Self.none, next: Self.none)
    }

    /// Debug-only consistency check of the cheap invariants.
    @inlinable
    func checkInvariants() {
        assert((head == Self.none) == (tail == Self.none), "head and tail must be empty together")
        assert(index.count + freeSlots.count == entries.count, "every slot is either live or free")
        assert(entries.count == links.count, "one link per slot")
    }
}

/// A hash map plus a doubly linked list in recency order: O(1) lookup, insert, touch and eviction.
///
/// The list lives in one array of nodes linked by 32-bit indices instead of one heap object per
/// entry (YYMemoryCache's `_YYLinkedMapNode`): no allocation and no reference counting per node,
/// and freed slots are reused. `head` is the most recently used entry, `tail` the least.
///
/// Not thread-safe; ``MemoryCache`` guards it with a mutex.
struct LRUList<Key: Hashable, Value> {
    typealias Index = Int32
    static var none: Index { -1 }

    struct Node {
        var key: Key?
        var value: Value?
        var cost: Int
        /// Monotonic time of the last read or write, in nanoseconds.
        var accessTime: UInt64
        /// Monotonic deadline after which the entry is gone; `UInt64.max` for none.
        var expiry: UInt64
        var previous: Index
        var next: Index
    }

    private(set) var nodes: [Node] = []
    private var freeSlots: [Index] = []
    private(set) var index: [Key: Index] = [:]
    private(set) var head: Index = none
    private(set) var tail: Index = none
    private(set) var totalCost = 0
    /// How many live entries carry an expiry; lets the periodic sweep skip the scan when zero.
    private(set) var expiringCount = 0

    var count: Int { index.count }

    func slot(for key: Key) -> Index? {
        index[key]
    }

    subscript(slot: Index) -> Node {
        nodes[Int(slot)]
    }

    /// Marks the entry as just used: updates its time and moves it to the head.
    mutating func touch(_ slot: Index, at time: UInt64) {
        nodes[Int(slot)].accessTime = time
        guard slot != head else { return }
        unlink(slot)
        linkAtHead(slot)
    }

    /// Replaces the value of an existing entry and moves it to the head; returns the old value.
    mutating func replace(_ slot: Index, value: Value, cost: Int, time: UInt64, expiry: UInt64) -> Value? {
        let i = Int(slot)
        totalCost += cost - nodes[i].cost
        expiringCount += (expiry != .max ? 1 : 0) - (nodes[i].expiry != .max ? 1 : 0)
        let old = nodes[i].value
        nodes[i].value = value
        nodes[i].cost = cost
        nodes[i].expiry = expiry
        touch(slot, at: time)
        return old
    }

    /// Inserts a new key at the head. The key must not be present.
    mutating func insert(key: Key, value: Value, cost: Int, time: UInt64, expiry: UInt64) {
        assert(index[key] == nil, "insert of a key that is already present")
        let node = Node(key: key, value: value, cost: cost, accessTime: time, expiry: expiry,
                        previous: Self.none, next: Self.none)
        let slot: Index
        if let reused = freeSlots.popLast() {
            slot = reused
            nodes[Int(slot)] = node
        } else {
            precondition(nodes.count < Int(Index.max), "LRUList holds at most Int32.max entries")
            slot = Index(nodes.count)
            nodes.append(node)
        }
        index[key] = slot
        totalCost += cost
        if expiry != .max { expiringCount += 1 }
        linkAtHead(slot)
    }

    /// Removes an entry and returns its value.
    @discardableResult
    mutating func remove(_ slot: Index) -> Value? {
        let i = Int(slot)
        unlink(slot)
        if let key = nodes[i].key { index[key] = nil }
        totalCost -= nodes[i].cost
        if nodes[i].expiry != .max { expiringCount -= 1 }
        let value = nodes[i].value
        nodes[i].key = nil
        nodes[i].value = nil
        nodes[i].cost = 0
        nodes[i].expiry = .max
        freeSlots.append(slot)
        checkInvariants()
        return value
    }

    /// Removes the least recently used entry and returns its value.
    mutating func removeTail() -> Value? {
        guard tail != Self.none else { return nil }
        return remove(tail)
    }

    /// Empties the list, returning the old storage so that the caller can release it elsewhere.
    mutating func removeAll() -> LRUList {
        let old = self
        self = LRUList()
        return old
    }

    /// Slots whose expiry is at or before `time`.
    func expiredSlots(at time: UInt64) -> [Index] {
        guard expiringCount > 0 else { return [] }
        var result: [Index] = []
        for (i, node) in nodes.enumerated() where node.key != nil && node.expiry <= time {
            result.append(Index(i))
        }
        return result
    }

    private mutating func linkAtHead(_ slot: Index) {
        let i = Int(slot)
        nodes[i].previous = Self.none
        nodes[i].next = head
        if head != Self.none { nodes[Int(head)].previous = slot }
        head = slot
        if tail == Self.none { tail = slot }
    }

    private mutating func unlink(_ slot: Index) {
        let i = Int(slot)
        let previous = nodes[i].previous
        let next = nodes[i].next
        if previous != Self.none { nodes[Int(previous)].next = next } else { head = next }
        if next != Self.none { nodes[Int(next)].previous = previous } else { tail = previous }
        nodes[i].previous = Self.none
        nodes[i].next = Self.none
    }

    /// Debug-only consistency check of the cheap invariants.
    private func checkInvariants() {
        assert((head == Self.none) == (tail == Self.none), "head and tail must be empty together")
        assert(index.count + freeSlots.count == nodes.count, "every slot is either live or free")
        assert(totalCost >= 0 || index.isEmpty == false, "cost cannot be negative on an empty list")
    }
}

/// The idle work of an ``IdleWorkQueue``, first in first out, where taking the first item and
/// cancelling any item by its id are O(1) (amortized).
///
/// Neither walks the list (as an array's `removeFirst()` and `removeAll { $0.id == id }` would),
/// so a program that queues tens of thousands of preload items and cancels them one by one
/// holds the idle queue's lock for O(1) each time.
struct IdleWorkList {
    typealias Work = @Sendable () -> Void

    /// The items not yet taken nor cancelled, by id.
    private var work: [Int: Work] = [:]
    /// Ids in the order added, from `head` on; ids of cancelled items stay until reached or
    /// until they are most of the array.
    private var order: [Int] = []
    private var head = 0
    private var lastID = 0

    /// Items waiting.
    var count: Int { work.count }

    /// Whether no item waits.
    var isEmpty: Bool { work.isEmpty }

    /// Ids kept in `order` (taken, waiting, or cancelled, not yet dropped): for tests of its bound.
    var storedIDCount: Int { order.count }

    /// Adds `item` at the end and returns its id (ids are never reused).
    mutating func append(_ item: @escaping Work) -> Int {
        lastID += 1
        work[lastID] = item
        order.append(lastID)
        return lastID
    }

    /// Removes the item `id` if it is still waiting, and returns it (for the caller to release
    /// outside its lock: what the closure captured may run code as it goes).
    @discardableResult
    mutating func remove(_ id: Int) -> Work? {
        guard let removed = work.removeValue(forKey: id) else { return nil }
        defer { dropCancelledIDsIfMostlyCancelled() }
        return removed
    }

    private mutating func dropCancelledIDsIfMostlyCancelled() {
        if work.isEmpty {
            removeAll()
        } else if order.count - head >= 1024 + 2 * work.count {
            // Mostly ids of cancelled items (items added and cancelled while the oldest waits):
            // keep only the waiting ones, so that `order` does not grow with every cancellation.
            order = order[head...].filter { work[$0] != nil }
            head = 0
        }
    }

    /// Removes and returns the oldest waiting item.
    mutating func popFirst() -> Work? {
        while head < order.count {
            let id = order[head]
            head += 1
            if let item = work.removeValue(forKey: id) {
                compactIfWorthIt()
                return item
            }
        }
        removeAll()
        return nil
    }

    /// Removes every item and returns them (to be released outside the caller's lock). Ids given
    /// out before are not given again.
    @discardableResult
    mutating func removeAll() -> [Int: Work] {
        defer {
            work = [:]
            order = []
            head = 0
        }
        return work
    }

    /// Drops the taken prefix of `order` once it is most of the array, so memory follows what
    /// waits and each id is moved O(1) times on average.
    private mutating func compactIfWorthIt() {
        guard head >= 1024, head * 2 >= order.count else { return }
        order.removeFirst(head)
        head = 0
    }
}

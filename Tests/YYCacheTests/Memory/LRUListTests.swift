import TestSupport
import Testing

@testable import YYCache

/// The list against a plain model (an array in recency order), through thousands of random
/// operations, with every invariant walked after every mutation.
@Suite struct LRUListTests {
    /// What the list should hold, most recent first.
    struct Model {
        var entries: [(key: Int, value: Int, cost: Int, expiry: UInt64)] = []
        var totalCost: Int { entries.reduce(0) { $0 + $1.cost } }
    }

    @Test func randomOperationsMatchTheModelAndKeepEveryInvariant() {
        var list = LRUList<Int, Int>()
        list.verifiesEveryMutation = true
        var model = Model()
        var random = SplitMix64(seed: 7)
        var time: UInt64 = 1
        for step in 0..<20_000 {
            time += random.next() % 3
            let key = Int(random.next() % 64)
            switch random.next() % 5 {
            case 0, 1:
                let value = step, cost = Int(random.next() % 100)
                let expiry: UInt64 = random.next() % 4 == 0 ? time + random.next() % 50 : .max
                let replaced = list.upsert(key: key, value: value, cost: cost, time: time, expiry: expiry)
                let old = model.entries.firstIndex { $0.key == key }.map { model.entries.remove(at: $0) }
                #expect(replaced == old?.value)
                model.entries.insert((key, value, cost, expiry), at: 0)
            case 2:
                let slot = list.lookup(key)
                #expect(slot?.value == model.entries.first { $0.key == key }?.value)
                if let slot {
                    list.touch(slot.position, at: time)
                    let at = model.entries.firstIndex { $0.key == key }!
                    model.entries.insert(model.entries.remove(at: at), at: 0)
                }
            case 3:
                if let slot = list.lookup(key) {
                    let removed = list.remove(slot.position)
                    #expect(removed?.key == key && removed?.value == slot.value)
                    model.entries.removeAll { $0.key == key }
                }
            default:
                let removed = list.removeTail(), expected = model.entries.popLast()
                #expect(removed?.key == expected?.key && removed?.value == expected?.value)
            }
            #expect(list.count == model.entries.count)
            #expect(list.totalCost == Int128(model.totalCost))
        }
        // Recency order, walked from the head, is the model's.
        var order: [Int] = []
        var position = list.head
        while position != LRUList<Int, Int>.none {
            order.append(list.entries[Int(position)].key!)
            position = list.links[Int(position)].next
        }
        #expect(order == model.entries.map(\.key))
        #expect(list.expiredPositions(at: time).count == model.entries.filter { $0.expiry <= time }.count)
        #expect(list.invariantViolations().isEmpty)
    }

    @Test func aBrokenListIsReported() {
        var list = LRUList<Int, Int>()
        for key in 0..<3 { _ = list.upsert(key: key, value: key, cost: 1, time: UInt64(key + 1), expiry: .max) }
        #expect(list.invariantViolations().isEmpty)
        list.totalCost += 5
        list.links[Int(list.head)].previous = list.tail
        let violations = list.invariantViolations()
        #expect(violations.contains { $0.contains("totalCost") })
        #expect(violations.contains { $0.contains("previous") })
    }
}

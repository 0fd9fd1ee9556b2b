import TestSupport
import TestTraits
import Testing
import YYDispatch

@Suite(.hangLimit) struct DeadlineQueueTests {
    let start = ContinuousClock.now

    @Test func payloadsComeOutEarliestFirstAndEqualDeadlinesInInsertionOrder() {
        var random = SplitMix64(seed: 7)
        var queue = DeadlineQueue<Int>()
        var expected: [(offset: Int, payload: Int)] = []
        for payload in 0..<2_000 {
            let offset = Int.random(in: 0..<50, using: &random)  // many equal deadlines
            _ = queue.insert(payload, at: start + .milliseconds(offset))
            expected.append((offset, payload))
        }
        expected.sort { ($0.offset, $0.payload) < ($1.offset, $1.payload) }
        var taken: [Int] = []
        while let payload = queue.popFirst(dueBy: start + .seconds(1)) { taken.append(payload) }
        #expect(taken == expected.map(\.payload))
        #expect(queue.count == 0 && queue.storedCount == 0)
    }

    @Test func nothingComesOutBeforeItsDeadline() {
        var queue = DeadlineQueue<String>()
        _ = queue.insert("later", at: start + .milliseconds(20))
        _ = queue.insert("sooner", at: start + .milliseconds(10))
        #expect(queue.earliestDeadline() == start + .milliseconds(10))
        #expect(queue.popFirst(dueBy: start + .milliseconds(9)) == nil)
        #expect(queue.popFirst(dueBy: start + .milliseconds(10)) == "sooner")
        #expect(queue.popFirst(dueBy: start + .milliseconds(10)) == nil)
        #expect(queue.earliestDeadline() == start + .milliseconds(20))
        #expect(queue.popFirst(dueBy: start + .milliseconds(30)) == "later")
        #expect(queue.earliestDeadline() == nil)
    }

    @Test func aRemovedPayloadIsHandedBackOnceAndNeverComesOut() {
        var queue = DeadlineQueue<String>()
        let first = queue.insert("first", at: start)
        _ = queue.insert("second", at: start + .milliseconds(1))
        #expect(queue.remove(first) == "first")
        #expect(queue.remove(first) == nil)
        #expect(queue.count == 1)
        #expect(queue.earliestDeadline() == start + .milliseconds(1))
        #expect(queue.popFirst(dueBy: start + .seconds(1)) == "second")
        #expect(queue.popFirst(dueBy: start + .seconds(1)) == nil)
    }

    @Test func removedEntriesAreDroppedBeforeTheyOutnumberTheLiveOnes() {
        var queue = DeadlineQueue<Int>()
        let ids = (0..<10_000).map { queue.insert($0, at: start + .seconds(600 - $0)) }
        for id in ids.dropLast(10) { queue.remove(id) }
        #expect(queue.count == 10)
        #expect(queue.storedCount <= 64)
        var taken: [Int] = []
        while let payload = queue.popFirst(dueBy: start + .seconds(600)) { taken.append(payload) }
        #expect(taken == Array((9_990..<10_000).reversed()))
    }

    /// Latest deadline first, the worst order for a sorted array (every insert at its front), then
    /// every other one removed: O(log n) each here.
    @Test func twoHundredThousandPayloadsInsertedLatestFirstAndHalfRemoved() {
        var queue = DeadlineQueue<Int>()
        var ids: [DeadlineQueue<Int>.ID] = []
        for index in 0..<200_000 {
            ids.append(queue.insert(index, at: start + .microseconds(200_000 - index)))
        }
        for id in ids.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) { queue.remove(id) }
        #expect(queue.count == 100_000)
        var last = Int.max
        var inOrder = true
        while let payload = queue.popFirst(dueBy: start + .seconds(1)) {
            inOrder = inOrder && payload % 2 == 1 && payload < last
            last = payload
        }
        #expect(inOrder && queue.count == 0)
    }
}

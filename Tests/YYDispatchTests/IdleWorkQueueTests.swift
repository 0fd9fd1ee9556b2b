import Dispatch
import Foundation
import TestSupport
import TestTraits
import Testing
import YYDispatch

@Suite(.hangLimit) struct IdleWorkQueueTests {
    let queue = DispatchQueue(label: "idle-tests")

    /// Returns once the idle queue has no idle work left and the queue ran what it had.
    func settle(_ idle: IdleWorkQueue) async {
        while idle.pendingCount > 0 { await run(on: queue) }
        await run(on: queue)
    }

    @Test func idleWorkWaitsUntilNoRegularWorkIsQueuedOrRunning() async {
        let idle = IdleWorkQueue(queue: queue, batchSize: 2)
        let log = EventLog<String>()
        let gate = DispatchSemaphore(value: 0)
        idle.async {
            gate.wait(); log.append("regular 1")
        }
        for index in 1...3 { idle.addIdleWork { log.append("idle \(index)") } }
        idle.async { log.append("regular 2") }
        idle.async {
            log.append("regular 3")
            // Regular work that arrives while idle work is pending goes first.
            idle.async { log.append("regular 4") }
        }
        gate.signal()
        await settle(idle)
        #expect(log.all == ["regular 1", "regular 2", "regular 3", "regular 4", "idle 1", "idle 2", "idle 3"])
    }

    @Test func idleWorkRunsInBatchesAndYieldsToTheQueueBetweenThem() async {
        let idle = IdleWorkQueue(queue: queue, batchSize: 3)
        let log = EventLog<String>()
        // Held (past the idle queue, so not counted as regular work) until every item is in:
        // otherwise a batch could start with only the first.
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        for index in 1...7 {
            idle.addIdleWork {
                log.append("idle \(index)")
                // Put on the queue directly: it runs when the batch yields.
                if index == 1 { queue.async { log.append("between batches") } }
            }
        }
        gate.signal()
        await settle(idle)
        #expect(log.all == ["idle 1", "idle 2", "idle 3", "between batches", "idle 4", "idle 5", "idle 6", "idle 7"])
    }

    @Test func aBatchEndsAsSoonAsRegularWorkArrives() async {
        let idle = IdleWorkQueue(queue: queue, batchSize: 10)
        let log = EventLog<String>()
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        for index in 1...4 {
            idle.addIdleWork {
                log.append("idle \(index)")
                if index == 2 { idle.async { log.append("regular") } }
            }
        }
        gate.signal()
        await settle(idle)
        #expect(log.all == ["idle 1", "idle 2", "regular", "idle 3", "idle 4"])
    }

    @Test func cancelledIdleWorkNeverRuns() async {
        let idle = IdleWorkQueue(queue: queue)
        let log = EventLog<Int>()
        let gate = DispatchSemaphore(value: 0)
        idle.async { gate.wait() }
        let items = (1...6).map { index in idle.addIdleWork { log.append(index) } }
        items[1].cancel()
        items[4].cancel()
        #expect(idle.pendingCount == 4)
        gate.signal()
        await settle(idle)
        #expect(log.all == [1, 3, 4, 6])

        idle.async { gate.wait() }
        for index in 7...9 { idle.addIdleWork { log.append(index) } }
        idle.cancelAll()
        gate.signal()
        await settle(idle)
        #expect(log.all == [1, 3, 4, 6])
        #expect(idle.pendingCount == 0)
    }

    /// Taking the first item and cancelling one were O(n) (an array's `removeFirst()` and
    /// `removeAll(where:)`): this took more than five minutes.
    @Test func aHundredThousandItemsHalfCancelledOneByOneRunInOrder() async {
        let idle = IdleWorkQueue(queue: queue, batchSize: 64)
        let ran = Locked([Int]())
        let gate = DispatchSemaphore(value: 0)
        idle.async { gate.wait() }
        let items = (0..<100_000).map { index in idle.addIdleWork { ran.withLock { $0.append(index) } } }
        for index in stride(from: 1, to: items.count, by: 2) {
            items[index].cancel()
            // Past the suite's time limit (the test is cancelled then), fail rather than go on.
            if index % 1_024 == 1 && Task.isCancelled { return }
        }
        #expect(idle.pendingCount == 50_000)
        gate.signal()
        await settle(idle)
        #expect(ran.withLock { $0 } == Array(stride(from: 0, to: 100_000, by: 2)))
    }

    /// Cancelled items were released under the idle queue's lock: a deinit of something an item
    /// captured that called the queue took the lock again and the thread deadlocked.
    @Test(arguments: [false, true]) func releasingACancelledItemMayCallTheQueue(cancellingAll: Bool) async {
        final class CallsBackOnRelease: Sendable {
            let idle: IdleWorkQueue
            init(_ idle: IdleWorkQueue) { self.idle = idle }
            deinit { idle.addIdleWork {} }
        }
        let idle = IdleWorkQueue(queue: queue)
        let gate = DispatchSemaphore(value: 0)
        idle.async { gate.wait() }
        let item = { () -> IdleWorkQueue.Item in
            let captured = CallsBackOnRelease(idle)
            return idle.addIdleWork { withExtendedLifetime(captured) {} }
        }()
        let finished = await returnsInTime { if cancellingAll { idle.cancelAll() } else { item.cancel() } }
        #expect(finished, "cancelling deadlocked")
        guard finished else { return }
        #expect(idle.pendingCount == 1)  // what the deinit added
        gate.signal()
        await settle(idle)
    }
}

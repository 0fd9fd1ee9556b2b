import Dispatch
import TestTraits
import Testing
import YYDispatch

@Suite(.hangLimit) struct SupersedingWorkTests {
    let delivery = DispatchQueue(label: "superseding-delivery")
    let pool = try! DispatchQueuePool(name: "superseding-tests", queueCount: 2)

    /// Waits until every queue of the pool, then the delivery queue, ran what it had.
    func drain() async {
        for queue in pool.queues { await run(on: queue) }
        await run(on: delivery)
    }

    @Test func ofAThousandRapidStartsOnlyTheLastPublishes() async {
        let work = SupersedingWork<Int>(deliveringOn: .queue(delivery), pool: pool)
        let published = EventLog<Int>()
        let computed = EventLog<Int>()
        // Started from the delivery queue, as a view starts its rendering from the main queue.
        await run(on: delivery) {
            for index in 0..<1000 {
                work.start(
                    { _ in
                        computed.append(index); return index
                    }, publish: { published.append($0) })
            }
        }
        await drain()
        await drain()  // a result handed to the delivery queue while the first drain ran
        #expect(published.all == [999])
        #expect(computed.all.contains(999))
    }

    @Test func resultsArePublishedNewestLastAndTheNewestAlways() async {
        let work = SupersedingWork<Int>(deliveringOn: .queue(delivery), pool: pool)
        let published = EventLog<Int>()
        for index in 0..<1000 {
            work.start({ _ in index }, publish: { published.append($0) })
            if index % 100 == 0 { await Task.yield() }
        }
        await drain()
        await drain()
        let order = published.all
        #expect(order.last == 999)
        #expect(order == order.sorted(), "an older result never follows a newer one")
        #expect(Set(order).count == order.count)
    }

    @Test func supersededWorkSeesItselfCancelledAndItsResultIsDropped() async {
        let work = SupersedingWork<String>(deliveringOn: .queue(delivery), pool: pool)
        let published = EventLog<String>()
        let sawCancellation = EventLog<Bool>()
        let started = DispatchSemaphore(value: 0), proceed = DispatchSemaphore(value: 0)
        work.start(
            { isCancelled in
                started.signal()
                proceed.wait()
                sawCancellation.append(isCancelled())
                return "old"
            }, publish: { published.append($0) })
        started.wait()
        work.start({ _ in "new" }, publish: { published.append($0) })
        proceed.signal()
        await drain()
        await drain()
        #expect(sawCancellation.all == [true])
        #expect(published.all == ["new"])
    }

    @Test func cancelStopsEverythingStartedBefore() async {
        let work = SupersedingWork<Int>(deliveringOn: .queue(delivery), pool: pool)
        let published = EventLog<Int>()
        let proceed = DispatchSemaphore(value: 0)
        work.start(
            { _ in
                proceed.wait(); return 1
            }, publish: { published.append($0) })
        work.cancel()
        proceed.signal()
        await drain()
        await drain()
        #expect(published.all.isEmpty)
    }
}

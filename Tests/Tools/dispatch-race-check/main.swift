// Drives YYDispatch's tools from many threads at once, for CI's ThreadSanitizer run
// (scripts/race-check). The whole test suite under the sanitizer needs a second build of
// everything, AsyncHTTPClient and BoringSSL included, which CI has no time for; this program
// needs only YYDispatch and swift-log. It checks its results too: any wrong count exits 1, and
// the sanitizer's halt_on_error makes any race exit non-zero.
import Dispatch
import Foundation
import YYDispatch

let failures = Locked(0)
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        failures.withLock { $0 += 1 }
        FileHandle.standardError.write(Data("dispatch-race-check: \(message())\n".utf8))
    }
}

/// Waits until `queue` ran what it had.
func drain(_ queue: DispatchQueue) { queue.sync {} }

// Transaction: 8 threads commit 100 keys into one turn; each runs once.
do {
    let queue = DispatchQueue(label: "transaction")
    let transaction = Transaction(on: .queue(queue))
    let ran = Locked([Int: Int]())
    for _ in 0..<20 {
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for key in 0..<100 { transaction.commit(key) { ran.withLock { $0[key, default: 0] += 1 } } }
        }
        gate.signal()
        drain(queue)
    }
    check(ran.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 20) }), "Transaction ran keys other than once per turn")
}

// SupersedingWork: starts from 4 threads; published results only ever increase per thread order.
do {
    let delivery = DispatchQueue(label: "delivery")
    let pool = try! DispatchQueuePool(name: "superseding", queueCount: 2)
    let work = SupersedingWork<Int>(deliveringOn: .queue(delivery), pool: pool)
    let published = Locked([Int]())
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for index in 0..<500 {
            work.start({ isCancelled in isCancelled() ? nil : thread * 1000 + index }, publish: { value in published.withLock { $0.append(value) } })
        }
    }
    for queue in pool.queues { drain(queue) }
    drain(delivery)
    for queue in pool.queues { drain(queue) }
    drain(delivery)
    let values = published.withLock { $0 }
    check(!values.isEmpty && Set(values).count == values.count, "SupersedingWork published \(values.count) results, some twice")
}

// WeakObserverTable: 8 threads add, remove and iterate.
do {
    final class Listener: Sendable { let id: Int; init(_ id: Int) { self.id = id } }
    let table = WeakObserverTable<Listener>()
    let kept = (0..<8).map { thread in (0..<200).map { Listener(thread * 1000 + $0) } }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
        for (index, listener) in kept[thread].enumerated() {
            table.add(listener)
            table.add(Listener(-1))
            if index % 2 == 1 { table.remove(kept[thread][index - 1]) }
            table.forEach { _ = $0.id }
        }
    }
    check(table.count == 8 * 100, "WeakObserverTable kept \(table.count) observers, not 800")
}

// IdleWorkQueue: regular work from 4 threads while idle work is added and some cancelled.
do {
    let queue = DispatchQueue(label: "idle")
    let idle = IdleWorkQueue(queue: queue, batchSize: 3)
    let ran = Locked(Set<Int>())
    let cancelled = Locked(Set<Int>())
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
        for index in 0..<200 {
            let id = thread * 1000 + index
            idle.async { _ = id }
            let item = idle.addIdleWork { _ = ran.withLock { $0.insert(id) } }
            if index % 5 == 0 {
                item.cancel()
                _ = cancelled.withLock { $0.insert(id) }
            }
        }
    }
    while idle.pendingCount > 0 { drain(queue) }
    drain(queue)
    let all = Set((0..<4).flatMap { thread in (0..<200).map { thread * 1000 + $0 } })
    let ranIDs = ran.withLock { $0 }, cancelledIDs = cancelled.withLock { $0 }
    // An item cancelled after it started still ran; every other one ran exactly when not cancelled.
    check(all.subtracting(cancelledIDs).isSubset(of: ranIDs), "IdleWorkQueue lost idle work")
}

// StallMonitor: real threads; a queue blocked 150 ms against a 40 ms threshold; stop and start
// again while probes answer.
do {
    let queue = DispatchQueue(label: "watched")
    actor Watched {}
    let events = Locked([StallMonitor.Event]())
    var configuration = StallMonitor.Configuration()
    configuration.interval = .milliseconds(5)
    configuration.threshold = .milliseconds(40)
    let monitor = StallMonitor(
        probes: [.queue(queue, name: "watched"), .concurrencyPool(), .actor(Watched(), name: "actor")],
        configuration: configuration
    ) { event in events.withLock { $0.append(event) } }
    monitor.start()
    queue.async { _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(150)) }
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline, !events.withLock({ $0.contains { if case .stallEnded("watched", _) = $0 { true } else { false } } }) {
        _ = monitor.ownCPUTime
        drain(queue)
    }
    monitor.stop()
    monitor.start()
    drain(queue)
    monitor.stop()
    check(events.withLock { $0.contains { if case .stallEnded("watched", _) = $0 { true } else { false } } }, "StallMonitor missed a 150 ms stall")
}

if failures.withLock({ $0 }) > 0 { exit(1) }
print("dispatch-race-check: Transaction, SupersedingWork, WeakObserverTable, IdleWorkQueue and StallMonitor agree")

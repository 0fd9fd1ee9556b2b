import Dispatch
import TestTraits
import Testing
import YYDispatch

@Suite(.hangLimit) struct TransactionTests {
    let queue = DispatchQueue(label: "transaction-tests")

    @Test func aThousandCommitsOfOneKeyInOneTurnRunOnceAfterTheCurrentWorkItem() async {
        let transaction = Transaction(on: .queue(queue))
        let log = EventLog<String>()
        await run(on: queue) {
            for _ in 0..<1000 { transaction.commit("layout") { log.append("layout") } }
            log.append("end of the work item")
        }
        await run(on: queue)  // after the turn the commits were made in
        #expect(log.all == ["end of the work item", "layout"])
        #expect(transaction.pendingCount == 0)
    }

    @Test func distinctKeysRunInTheOrderOfTheirFirstCommitWithTheFirstAction() async {
        let transaction = Transaction(on: .queue(queue))
        let log = EventLog<String>()
        await run(on: queue) {
            for (key, action) in [("a", "a1"), ("b", "b1"), ("a", "a2"), ("c", "c1"), ("b", "b2")] {
                transaction.commit(key) { log.append(action) }
            }
        }
        await run(on: queue)
        #expect(log.all == ["a1", "b1", "c1"])
    }

    /// A key whose hash is the same for every value: only equality tells two apart.
    private struct Colliding: Hashable, Sendable {
        let name: String
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }

    @Test func keysWhoseHashesCollideAreToldApartByEquality() async {
        let transaction = Transaction(on: .queue(queue))
        let log = EventLog<String>()
        await run(on: queue) {
            for name in ["x", "y", "x", "z", "y"] {
                transaction.commit(Colliding(name: name)) { log.append(name) }
            }
        }
        await run(on: queue)
        #expect(log.all == ["x", "y", "z"])
    }

    @Test func equalValuesOfDifferentTypesAreDifferentKeys() async {
        let transaction = Transaction(on: .queue(queue))
        let log = EventLog<String>()
        await run(on: queue) {
            transaction.commit(1) { log.append("Int") }
            transaction.commit(UInt8(1)) { log.append("UInt8") }
            transaction.commit("1") { log.append("String") }
            transaction.commit(1) { log.append("Int again") }
        }
        await run(on: queue)
        #expect(log.all == ["Int", "UInt8", "String"])
    }

    @Test func commitsMadeWhileCommittingRunInTheNextTurn() async {
        let transaction = Transaction(on: .queue(queue))
        let log = EventLog<String>()
        await run(on: queue) {
            transaction.commit("a") {
                log.append("a")
                queue.async { log.append("a work item queued by a") }
                transaction.commit("b") { log.append("b") }
                transaction.commit("a") { log.append("a again") }
            }
        }
        await run(on: queue)
        await run(on: queue)
        #expect(log.all == ["a", "a work item queued by a", "b", "a again"])
    }

    @Test func commitsFromManyThreadsRunOncePerKey() async {
        let transaction = Transaction(on: .queue(queue))
        let log = EventLog<Int>()
        // Held on the queue so that every commit lands in the same turn.
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for key in 0..<100 { transaction.commit(key) { log.append(key) } }
        }
        gate.signal()
        await run(on: queue)
        #expect(log.all.sorted() == Array(0..<100))
    }

    @Test func aTargetAndActionPairRunsOncePerTargetAndKeepsItsTargetAlive() async {
        final class View: Sendable {
            let redraws = EventLog<Int>()
        }
        let transaction = Transaction(on: .queue(queue))
        weak var released: View?
        let kept = View()
        let redrawn = EventLog<Int>()
        do {
            let temporary = View()
            released = temporary
            await run(on: queue) {
                for _ in 0..<3 {
                    transaction.commit(target: temporary, action: "redraw") { _ in redrawn.append(1) }
                    transaction.commit(target: kept, action: "redraw") { $0.redraws.append(2) }
                }
                transaction.commit(target: kept, action: "layout") { $0.redraws.append(3) }
            }
        }
        await run(on: queue)
        #expect(kept.redraws.all == [2, 3])
        #expect(redrawn.all == [1])
        #expect(released == nil, "the transaction lets go of its targets once their actions ran")
    }

    @Test func anActorTargetRunsTheActionsIsolatedToIt() async {
        actor Model {
            var layouts = 0
            func layOut() { layouts += 1 }

            /// Commits from inside one job of the actor: the flush comes in a later job.
            func commitLayouts(_ transaction: Transaction, times: Int, then done: @escaping @Sendable () -> Void) {
                for _ in 0..<times {
                    transaction.commit("layout") {
                        self.assumeIsolated { $0.layOut() }
                        done()
                    }
                }
            }
        }
        let model = Model()
        let transaction = Transaction(on: .actor(model))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Task { await model.commitLayouts(transaction, times: 10) { done.resume() } }
        }
        #expect(await model.layouts == 1)
    }

    /// The keys of a turn were released under the transaction's lock as it ran: a key object
    /// whose `deinit` committed took the lock again, and the queue deadlocked.
    @Test func aKeyWhoseReleaseCommitsDoesNotDeadlockTheQueue() async {
        final class CommitsOnRelease: Hashable, Sendable {
            let transaction: Transaction
            let log: EventLog<String>
            init(_ transaction: Transaction, _ log: EventLog<String>) { (self.transaction, self.log) = (transaction, log) }
            deinit { transaction.commit("released") { [log] in log.append("committed by deinit") } }
            static func == (lhs: CommitsOnRelease, rhs: CommitsOnRelease) -> Bool { lhs === rhs }
            func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        }
        let transaction = Transaction(on: .queue(queue))
        let log = EventLog<String>()
        queue.async { transaction.commit(CommitsOnRelease(transaction, log)) { log.append("action") } }
        // Waited for with a timeout, so that a deadlocked queue fails the test instead of hanging it.
        let drained = DispatchSemaphore(value: 0)
        queue.async { queue.async { queue.async { drained.signal() } } }
        let finished = await Task.detached { drained.wait(timeout: .now() + 10) == .success }.value
        #expect(finished, "the queue deadlocked")
        guard finished else { return }
        #expect(log.all == ["action", "committed by deinit"])
    }
}

import TestSupport
import Testing
import YYDispatch

@testable import YYImageService

@Suite struct AdmissionQueueTests {
    /// Waits for `queue` to reach `load` (polled every millisecond, not spun: a spinning test
    /// starves the rest of the suite of its two cores); whether it did within 10 s.
    private func waitForLoad(_ queue: AdmissionQueue, _ load: (running: Int, waiting: Int)) async -> Bool {
        await waitUntil { queue.load == load }
        return queue.load == load
    }

    /// Whether `task` succeeds before `guardLimit` passes. The limit only bounds a hang (a lost
    /// wake-up): it waits for nothing when the task ends, and when it passes it cancels the task,
    /// which takes a waiter out of the queue, so the test fails rather than hangs.
    private func finishes(_ task: Task<Void, any Error>, within guardLimit: Duration = .seconds(10)) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await task.value) != nil }
            group.addTask {
                try? await Task.sleep(for: guardLimit)
                task.cancel()
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test func aLeaveRacingAnAdmitWithOneWorkerNeverLeavesTheWaiterAsleep() async throws {
        let queue = AdmissionQueue(workers: 1, queueLimit: 4)
        for round in 0..<1_000 {
            try await queue.enter()
            // The waiter and the leave start together, so the leave lands before, between and
            // after the waiter's decision to wait and its enqueueing.
            let waiter = Task { try await queue.enter() }
            let leaver = Task.detached { queue.leave() }
            await leaver.value
            let admitted = await finishes(waiter)
            #expect(admitted, "round \(round): the waiter was never admitted")
            guard admitted else { return }
            #expect(queue.load == (running: 1, waiting: 0))
            queue.leave()
        }
        #expect(queue.load == (running: 0, waiting: 0))
    }

    @Test func aBurstNeverExceedsTheQueueLimitAndTheRestAreRefusedWith429() async throws {
        let queue = AdmissionQueue(workers: 2, queueLimit: 5)
        let refused = Locked(0)
        let admitted = Locked(0)
        try await queue.enter()
        try await queue.enter()
        var waiters: [Task<Void, any Error>] = []
        for _ in 0..<40 {
            waiters.append(
                Task.detached {
                    do {
                        try await queue.enter()
                        admitted.withLock { $0 += 1 }
                        queue.leave()
                    } catch let error as ServiceError {
                        #expect(error.status == 429)
                        refused.withLock { $0 += 1 }
                    }
                    #expect(queue.load.waiting <= 5)
                })
        }
        // With both workers held, exactly the queue limit waits and everyone else is refused.
        #expect(await waitForLoad(queue, (running: 2, waiting: 5)))
        #expect(await waitForRefusals(refused, 35))
        queue.leave()
        queue.leave()
        for waiter in waiters { try await waiter.value }
        #expect(admitted.withLock { $0 } == 5)
        #expect(refused.withLock { $0 } == 35)
        #expect(queue.load == (running: 0, waiting: 0))
    }

    private func waitForRefusals(_ refused: Locked<Int>, _ count: Int) async -> Bool {
        await waitUntil { refused.withLock { $0 } == count }
        return refused.withLock { $0 } == count
    }

    @Test func aRequestCancelledWhileWaitingGets503AndGivesUpItsPlace() async throws {
        let queue = AdmissionQueue(workers: 1, queueLimit: 1)
        try await queue.enter()
        let waiter = Task { try await queue.enter() }
        #expect(await waitForLoad(queue, (running: 1, waiting: 1)))
        waiter.cancel()
        await #expect(throws: ServiceError.self) { try await waiter.value }
        do {
            try await waiter.value
        } catch let error as ServiceError {
            #expect(error.status == 503)
        }
        #expect(queue.load == (running: 1, waiting: 0))
        // The place is free again: the next request waits rather than being refused.
        let next = Task { try await queue.enter() }
        #expect(await waitForLoad(queue, (running: 1, waiting: 1)))
        queue.leave()
        try await next.value
        queue.leave()
        #expect(queue.load == (running: 0, waiting: 0))
    }

    @Test func aFullQueueRefusesAtOnceWith429() async throws {
        let queue = AdmissionQueue(workers: 1, queueLimit: 0)
        try await queue.enter()
        await #expect(throws: ServiceError.busy) { try await queue.enter() }
        queue.leave()
        try await queue.enter()
        queue.leave()
    }
}

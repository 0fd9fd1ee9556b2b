import TestSupport
import TestTraits
import Testing
import YYDispatch

@testable import YYWebImage

/// The limiter runs waiting jobs by priority, first come first served among equals, follows
/// priority changes while a job waits, and keeps each group's limit.
@Suite(.hangLimit) struct ConcurrencyLimiterTests {
    /// Jobs queued behind a held slot, in the order the limiter let them run.
    private final class Order: Sendable {
        let names = Locked([String]())
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Holds the only slot of `limiter` until `gate` opens, while `queue` queues jobs behind it.
    private func runBehindAHeldSlot(
        _ limiter: ConcurrencyLimiter, queue: (inout ThrowingTaskGroup<Void, any Error>, Order) async -> Void,
        whileQueued: () -> Void = {}
    ) async throws -> [String] {
        let order = Order()
        let gate = AsyncStream<Void>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await limiter.withSlot(group: "host", priority: PrioritySignal(.normal)) { () throws(ImagePipelineError) in
                    for await _ in gate.stream {}
                }
            }
            await waitUntil { limiter.runningCount >= 1 }
            await queue(&group, order)
            whileQueued()
            gate.continuation.finish()
            try await group.waitForAll()
        }
        return order.all
    }

    private func enqueue(
        _ name: String, _ priority: PrioritySignal, on limiter: ConcurrencyLimiter,
        into group: inout ThrowingTaskGroup<Void, any Error>, order: Order
    ) async {
        let queuedBefore = limiter.queuedCount
        group.addTask {
            try await limiter.withSlot(group: "host", priority: priority) { () throws(ImagePipelineError) in order.append(name) }
        }
        // Wait until it is queued, so that the queue order is the order of these calls.
        await waitUntil { limiter.queuedCount != queuedBefore }
    }

    @Test func waitingJobsRunByPriorityThenInArrivalOrder() async throws {
        let limiter = ConcurrencyLimiter(perGroupLimit: 1, totalLimit: 1)
        let order = try await runBehindAHeldSlot(limiter) { group, order in
            for (name, priority) in [("low 1", ImagePriority.low), ("high", .high), ("low 2", .low), ("normal", .normal), ("very low", .veryLow)] {
                await enqueue(name, PrioritySignal(priority), on: limiter, into: &group, order: order)
            }
        }
        #expect(order == ["high", "normal", "low 1", "low 2", "very low"])
    }

    @Test func aJobWhosePriorityRisesWhileItWaitsMovesAhead() async throws {
        let limiter = ConcurrencyLimiter(perGroupLimit: 1, totalLimit: 1)
        let raised = PrioritySignal(.veryLow)
        let lowered = PrioritySignal(.veryHigh)
        let order = try await runBehindAHeldSlot(
            limiter,
            queue: { group, order in
                await enqueue("lowered", lowered, on: limiter, into: &group, order: order)
                await enqueue("normal", PrioritySignal(.normal), on: limiter, into: &group, order: order)
                await enqueue("raised", raised, on: limiter, into: &group, order: order)
            },
            whileQueued: {
                raised.set(.high)
                lowered.set(.low)
            })
        #expect(order == ["raised", "normal", "lowered"])
    }

    @Test func aFullGroupDoesNotHoldBackAnother() async throws {
        let limiter = ConcurrencyLimiter(perGroupLimit: 1, totalLimit: 2)
        let order = try await runBehindAHeldSlot(limiter) { group, order in
            // The held slot fills "host"; this one waits behind it.
            await enqueue("same host", PrioritySignal(.veryHigh), on: limiter, into: &group, order: order)
            // Another host still has room: it runs at once, ahead of the higher priority.
            group.addTask {
                try await limiter.withSlot(group: "other", priority: PrioritySignal(.veryLow)) { () throws(ImagePipelineError) in
                    order.append("other host")
                }
            }
            await waitUntil { !order.all.isEmpty }
        }
        #expect(order == ["other host", "same host"])
    }

    @Test func aCancelledWaiterLeavesTheQueueAndNeverRuns() async throws {
        let limiter = ConcurrencyLimiter(perGroupLimit: 1, totalLimit: 1)
        let order = try await runBehindAHeldSlot(limiter) { group, order in
            let queuedBefore = limiter.queuedCount
            let cancelled = Task {
                try await limiter.withSlot(group: "host", priority: PrioritySignal(.veryHigh)) { () throws(ImagePipelineError) in
                    order.append("cancelled")
                }
            }
            await waitUntil { limiter.queuedCount != queuedBefore }
            await enqueue("kept", PrioritySignal(.low), on: limiter, into: &group, order: order)
            cancelled.cancel()
            let result = await cancelled.result
            #expect(throws: ImagePipelineError.cancelled) { try result.get() }
            #expect(limiter.queuedCount == 1)
        }
        #expect(order == ["kept"])
        #expect(limiter.runningCount == 0)
    }

    @Test func aJobThatFindsTheSlotFreedBeforeItQueuesStillRuns() async throws {
        // Two jobs race for one slot, many times over. The loser once looked, found the slot
        // taken, and queued only after the winner had released it: no one was left to wake it,
        // and it waited forever (the suite's time limit turns that into a failure).
        let limiter = ConcurrencyLimiter(perGroupLimit: 1, totalLimit: 1)
        var ran = 0
        for _ in 0..<20_000 {
            ran += try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await limiter.withSlot(group: "host", priority: PrioritySignal(.normal)) { () throws(ImagePipelineError) in 1 }
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(ran == 40_000)
        #expect(limiter.runningCount == 0)
        #expect(limiter.queuedCount == 0)
    }
}

import Dispatch
import Foundation
import Synchronization
import Testing

@testable import YYDispatch

@Suite struct DispatchQueuePoolTests {
    @Test func acceptsOneToThirtyTwoQueues() throws {
        for bad in [0, 33, -1] {
            #expect(throws: DispatchQueuePoolError.invalidQueueCount(requested: bad)) {
                try DispatchQueuePool(name: "p", queueCount: bad)
            }
        }
        let pool = try DispatchQueuePool(name: "p", queueCount: 32, qos: .utility)
        #expect(pool.queues.count == 32)
        #expect(pool.queues.map(\.label).first == "p.0")
    }

    @Test func handsOutQueuesRoundRobin() throws {
        let pool = try DispatchQueuePool(name: "rr", queueCount: 3)
        let labels = (0..<6).map { _ in pool.queue.label }
        #expect(labels == ["rr.0", "rr.1", "rr.2", "rr.0", "rr.1", "rr.2"])
    }

    @Test func sharedPoolsHaveOneQueuePerProcessor() {
        let pool = DispatchQueuePool.shared(for: .utility)
        #expect(pool === DispatchQueuePool.shared(for: .utility))
        #expect(pool !== DispatchQueuePool.shared(for: .background))
        // One queue per processor the process may use (the active count, or fewer under a cgroup
        // CPU quota: SystemProcessorsTests), within the pool's range.
        let processors = SystemProcessors.count()
        #expect(processors <= ProcessInfo.processInfo.activeProcessorCount)
        #expect(pool.queues.count == min(max(processors, 1), 32))
        #expect(Set(pool.queues.map(\.label)).count == pool.queues.count, "one queue per label")
        #expect(pool.queues.allSatisfy { $0.qos.qosClass == .utility })
    }

    @Test func runReturnsTheResultAndRethrows() async throws {
        struct Failure: Error {}
        let pool = try DispatchQueuePool(name: "run", queueCount: 2)
        #expect(await pool.run { 6 * 7 } == 42)
        await #expect(throws: Failure.self) { try await pool.run { throw Failure() } }
    }

    @Test func worksAsATaskExecutor() async throws {
        let pool = try DispatchQueuePool(name: "executor", queueCount: 2)
        let key = DispatchSpecificKey<String>()
        for queue in pool.queues { queue.setSpecific(key: key, value: queue.label) }
        let label = await Task(executorPreference: pool) { DispatchQueue.getSpecific(key: key) }.value
        #expect(label?.hasPrefix("executor.") == true)
    }
}

public import Dispatch
import Foundation
import Synchronization

/// A fixed set of serial dispatch queues handed out round-robin.
///
/// A blocked task on a concurrent queue makes Dispatch spawn another thread; many blocked tasks
/// make many threads. A pool of serial queues caps the thread count at the queue count while still
/// spreading work over the processors (YYDispatchQueuePool's idea).
///
/// ```swift
/// let pool = try DispatchQueuePool(name: "decode", queueCount: 4, qos: .utility)
/// pool.queue.async { decode() }
/// let size = try await pool.run { try decodeAndMeasure() }
/// ```
///
/// The pool is also a `TaskExecutor`, so `Task(executorPreference: pool) { … }` runs async work on it.
public final class DispatchQueuePool: Sendable {
    /// The queue counts a pool accepts.
    public static let queueCountRange = 1...32

    /// The name given at creation; each queue's label is `name.<index>`.
    public let name: String
    /// The quality of service of every queue in the pool.
    public let qos: DispatchQoS
    /// The queues, in round-robin order.
    public let queues: [DispatchQueue]
    private let counter = Atomic<UInt>(0)

    /// Creates a pool of `queueCount` serial queues.
    ///
    /// - Throws: ``DispatchQueuePoolError/invalidQueueCount(requested:)`` when `queueCount` is
    ///   outside ``queueCountRange``.
    public init(name: String, queueCount: Int, qos: DispatchQoS = .default) throws(DispatchQueuePoolError) {
        guard Self.queueCountRange.contains(queueCount) else { throw .invalidQueueCount(requested: queueCount) }
        self.name = name
        self.qos = qos
        self.queues = (0..<queueCount).map { DispatchQueue(label: "\(name).\($0)", qos: qos) }
    }

    /// The next queue, round-robin. Safe to call from any thread.
    public var queue: DispatchQueue {
        let ticket = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        return queues[Int(ticket % UInt(queues.count))]
    }

    /// Runs `body` on the next queue and returns its result to the awaiting task.
    ///
    /// Use it for blocking work (file or database I/O, decoding) that must not occupy the
    /// cooperative thread pool. The error type is kept: a body that throws `DiskCacheError` makes
    /// `run` throw `DiskCacheError`.
    public func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(Failure) -> T in try body() }) }
        }
        return try result.get()
    }

    /// The number of queues a shared pool gets: one per processor the process may keep busy (the
    /// active processor count, or fewer under a cgroup CPU quota, such as a container's limit),
    /// clamped to 1...32. Read once, not by each of the five shared pools.
    static let defaultQueueCount = min(max(SystemProcessors.count(), queueCountRange.lowerBound), queueCountRange.upperBound)

    /// The shared pool for a quality-of-service class, created on first use with one queue per
    /// processor the process may keep busy (fewer than the machine has under a cgroup CPU quota).
    public static func shared(for qos: DispatchQoS.QoSClass) -> DispatchQueuePool {
        switch qos {
        case .userInteractive: SharedPools.userInteractive
        case .userInitiated: SharedPools.userInitiated
        case .utility: SharedPools.utility
        case .background: SharedPools.background
        default: SharedPools.default
        }
    }
}

/// The lazily created shared pools; `static let` gives thread-safe one-time initialisation.
private enum SharedPools {
    static func make(_ label: String, _ qos: DispatchQoS) -> DispatchQueuePool {
        // The count is clamped to the valid range, so this cannot throw.
        try! DispatchQueuePool(name: "yykit.\(label)", queueCount: DispatchQueuePool.defaultQueueCount, qos: qos)
    }
    static let userInteractive = make("user-interactive", .userInteractive)
    static let userInitiated = make("user-initiated", .userInitiated)
    static let utility = make("utility", .utility)
    static let background = make("background", .background)
    static let `default` = make("default", .default)
}

extension DispatchQueuePool: TaskExecutor {
    /// Runs a job on the next queue of the pool.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

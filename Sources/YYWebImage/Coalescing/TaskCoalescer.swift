import YYDispatch

/// Shares one piece of work among every caller that asks for the same key while it runs.
///
/// The first caller starts the work in a task of its own; later callers with the same key wait
/// for the same result. Each waiter brings a priority that may change while the work runs (the
/// work runs at the highest among its waiters) and may receive the work's events (progress,
/// previews). A waiter that cancels gets `.cancelled` at once; the work itself is cancelled only
/// when its last waiter has gone. Finished work leaves the table, so the next caller starts
/// afresh.
///
/// One lock guards the whole table. No closure a caller gave is called under it; the job's
/// ``PrioritySignal`` is set under it, so that its observers (the next stage's job, the
/// connection limiter) see the changes in order. Locks are taken in one order: the image
/// coalescer's, the data coalescer's, the limiter's, a signal's.
final class TaskCoalescer<Key: Hashable & Sendable, Value: Sendable, Event: Sendable>: Sendable {
    /// What the work sees of its waiters.
    struct Context: Sendable {
        fileprivate let coalescer: TaskCoalescer
        fileprivate let job: Job

        /// The highest priority among the current waiters; it keeps its last value once none is
        /// left.
        var priority: PrioritySignal { job.priority }

        /// Whether some waiter asked for partial results (previews).
        var wantsPartialResults: Bool { coalescer.wantsPartialResults(job) }

        /// Sends `event` to every current waiter.
        func send(_ event: Event) { coalescer.send(event, to: job) }
    }

    /// What a caller brings.
    struct Waiter: Sendable {
        /// The caller's priority; the job follows its changes.
        var priority: PrioritySignal
        /// Whether this caller wants partial results (read whenever the work asks).
        var wantsPartialResults: @Sendable () -> Bool = { false }
        /// Receives the work's events, on the work's task.
        var onEvent: (@Sendable (Event) -> Void)?
    }

    typealias Work = @Sendable (Context) async throws(ImagePipelineError) -> Value

    fileprivate struct Registered {
        var waiter: Waiter
        var continuation: CheckedContinuation<Result<Value, ImagePipelineError>, Never>
        /// The observation of `waiter.priority`, removed when the waiter leaves.
        var observation: Int
    }

    /// One running piece of work. A class so that its context reaches it without a lookup by
    /// key; its mutable fields are touched only under the coalescer's lock.
    fileprivate final class Job: @unchecked Sendable {
        let priority: PrioritySignal
        var waiters: [Int: Registered] = [:]
        var task: Task<Void, Never>?

        init(priority: ImagePriority) {
            self.priority = PrioritySignal(priority)
        }

        /// Sets the job's priority to the highest of its waiters'. Called under the lock.
        func updatePriority() {
            guard let highest = waiters.values.lazy.map(\.waiter.priority.value).max() else { return }
            priority.set(highest)
        }

        /// Ends every observation of the waiters' priorities. Called under the lock.
        func stopObserving() {
            for registered in waiters.values { registered.waiter.priority.removeObserver(registered.observation) }
        }
    }

    private struct State {
        var jobs: [Key: Job] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// Jobs running now.
    var runningCount: Int { state.withLock { $0.jobs.count } }

    /// Callers waiting on the work for `key`.
    func waiterCount(for key: Key) -> Int { state.withLock { $0.jobs[key]?.waiters.count ?? 0 } }

    /// Whether work for `key` is running.
    func isRunning(_ key: Key) -> Bool { state.withLock { $0.jobs[key] != nil } }

    /// The result of the work for `key`: joined if it runs, started with `work` otherwise.
    /// - Throws: the work's error, or `.cancelled` when the calling task is cancelled.
    func value(for key: Key, waiter: Waiter, work: @escaping Work) async throws(ImagePipelineError) -> Value {
        let waiterID = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ImagePipelineError>, Never>) in
                register(key: key, waiterID: waiterID, waiter: waiter, continuation: continuation, work: work)
            }
        } onCancel: {
            leave(key: key, waiterID: waiterID)
        }
        return try result.get()
    }

    private func register(
        key: Key, waiterID: Int, waiter: Waiter,
        continuation: CheckedContinuation<Result<Value, ImagePipelineError>, Never>, work: @escaping Work
    ) {
        // Checked under the lock: a cancellation after this point finds the waiter and removes it.
        let cancelled = state.withLock { (state: inout State) -> Bool in
            if Task.isCancelled { return true }
            let job: Job
            if let running = state.jobs[key] {
                job = running
            } else {
                job = Job(priority: waiter.priority.value)
                let context = Context(coalescer: self, job: job)
                job.task = Task { [self] in
                    let result = await Result(catching: { () async throws(ImagePipelineError) -> Value in try await work(context) })
                    finish(key: key, job: job, with: result)
                }
                state.jobs[key] = job
            }
            let observation = waiter.priority.addObserver { [weak self, weak job] in
                guard let self, let job else { return }
                self.state.withLock { _ in job.updatePriority() }
            }
            job.waiters[waiterID] = Registered(waiter: waiter, continuation: continuation, observation: observation)
            job.updatePriority()
            return false
        }
        if cancelled { continuation.resume(returning: .failure(.cancelled)) }
    }

    private func leave(key: Key, waiterID: Int) {
        let (left, orphanedTask) = state.withLock { state -> (Registered?, Task<Void, Never>?) in
            guard let job = state.jobs[key], let left = job.waiters.removeValue(forKey: waiterID) else { return (nil, nil) }
            left.waiter.priority.removeObserver(left.observation)
            guard job.waiters.isEmpty else {
                job.updatePriority()
                return (left, nil)
            }
            state.jobs[key] = nil
            return (left, job.task)
        }
        orphanedTask?.cancel()
        left?.continuation.resume(returning: .failure(.cancelled))
    }

    private func finish(key: Key, job: Job, with result: Result<Value, ImagePipelineError>) {
        let waiters = state.withLock { state -> [Registered] in
            guard state.jobs[key] === job else { return [] }
            state.jobs[key] = nil
            job.stopObserving()
            defer { job.waiters = [:] }
            return Array(job.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(returning: result) }
    }

    private func wantsPartialResults(_ job: Job) -> Bool {
        state.withLock { _ in job.waiters.values.map(\.waiter.wantsPartialResults) }.contains { $0() }
    }

    private func send(_ event: Event, to job: Job) {
        let receivers = state.withLock { _ in job.waiters.values.compactMap(\.waiter.onEvent) }
        for receive in receivers { receive(event) }
    }
}

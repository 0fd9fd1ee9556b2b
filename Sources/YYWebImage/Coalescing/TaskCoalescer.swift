import YYDispatch

/// Shares one piece of work among every caller that asks for the same key while it runs.
///
/// The first caller starts the work in a task of its own; later callers with the same key wait
/// for the same result. Each waiter brings its priority (read when the work asks, so it may
/// change while the work runs) and may receive the work's events (progress, previews). A waiter
/// that cancels gets `.cancelled` at once; the work itself is cancelled only when its last waiter
/// has gone. Finished work leaves the table, so the next caller starts afresh.
///
/// One lock guards the whole table. No closure a caller gave is called under it.
final class TaskCoalescer<Key: Hashable & Sendable, Value: Sendable, Event: Sendable>: Sendable {
    /// What the work sees of its waiters.
    struct Context: Sendable {
        fileprivate let coalescer: TaskCoalescer
        fileprivate let key: Key
        fileprivate let jobID: Int

        /// The highest priority among the current waiters (`.veryLow` once none is left).
        var priority: ImagePriority { coalescer.priority(key: key, jobID: jobID) }

        /// Whether some waiter asked for partial results (previews).
        var wantsPartialResults: Bool { coalescer.wantsPartialResults(key: key, jobID: jobID) }

        /// Sends `event` to every current waiter.
        func send(_ event: Event) { coalescer.send(event, key: key, jobID: jobID) }
    }

    /// What a caller brings.
    struct Waiter: Sendable {
        /// Read whenever the work or a scheduler needs the job's priority.
        var priority: @Sendable () -> ImagePriority
        /// Whether this caller wants partial results (read whenever the work asks).
        var wantsPartialResults: @Sendable () -> Bool = { false }
        /// Receives the work's events, on the work's task.
        var onEvent: (@Sendable (Event) -> Void)?
    }

    typealias Work = @Sendable (Context) async throws(ImagePipelineError) -> Value

    private struct Registered {
        var waiter: Waiter
        var continuation: CheckedContinuation<Result<Value, ImagePipelineError>, Never>
    }

    private struct Job {
        let id: Int
        var waiters: [Int: Registered] = [:]
        var task: Task<Void, Never>?
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
                register(key: key, waiterID: waiterID, registered: Registered(waiter: waiter, continuation: continuation), work: work)
            }
        } onCancel: {
            leave(key: key, waiterID: waiterID)
        }
        return try result.get()
    }

    private func register(key: Key, waiterID: Int, registered: Registered, work: @escaping Work) {
        // Checked under the lock: a cancellation after this point finds the waiter and removes it.
        let cancelled = state.withLock { (state: inout State) -> Bool in
            if Task.isCancelled { return true }
            if state.jobs[key] == nil {
                state.nextID += 1
                var job = Job(id: state.nextID)
                let context = Context(coalescer: self, key: key, jobID: job.id)
                job.task = Task { [self] in
                    let result = await Result(catching: { () async throws(ImagePipelineError) -> Value in try await work(context) })
                    finish(key: key, jobID: context.jobID, with: result)
                }
                state.jobs[key] = job
            }
            state.jobs[key]?.waiters[waiterID] = registered
            return false
        }
        if cancelled { registered.continuation.resume(returning: .failure(.cancelled)) }
    }

    private func leave(key: Key, waiterID: Int) {
        let (left, orphanedTask) = state.withLock { state -> (Registered?, Task<Void, Never>?) in
            guard let left = state.jobs[key]?.waiters.removeValue(forKey: waiterID) else { return (nil, nil) }
            guard let job = state.jobs[key], job.waiters.isEmpty else { return (left, nil) }
            state.jobs[key] = nil
            return (left, job.task)
        }
        orphanedTask?.cancel()
        left?.continuation.resume(returning: .failure(.cancelled))
    }

    private func finish(key: Key, jobID: Int, with result: Result<Value, ImagePipelineError>) {
        let waiters = state.withLock { state -> [Registered] in
            guard let job = state.jobs[key], job.id == jobID else { return [] }
            state.jobs[key] = nil
            return Array(job.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(returning: result) }
    }

    private func waiters(key: Key, jobID: Int) -> [Waiter] {
        state.withLock { state in
            guard let job = state.jobs[key], job.id == jobID else { return [] }
            return job.waiters.values.map(\.waiter)
        }
    }

    private func priority(key: Key, jobID: Int) -> ImagePriority {
        waiters(key: key, jobID: jobID).map { $0.priority() }.max() ?? .veryLow
    }

    private func wantsPartialResults(key: Key, jobID: Int) -> Bool {
        waiters(key: key, jobID: jobID).contains { $0.wantsPartialResults() }
    }

    private func send(_ event: Event, key: Key, jobID: Int) {
        for waiter in waiters(key: key, jobID: jobID) { waiter.onEvent?(event) }
    }
}

extension Result where Failure == ImagePipelineError {
    /// The result of async work with a typed error.
    init(catching body: () async throws(ImagePipelineError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

import NIOCore
import YYDispatch

/// Lets at most so many jobs run per group (a host) and overall; the others wait in priority
/// order, first come first served within a priority.
///
/// A queued job follows its ``PrioritySignal``: a download whose waiters raised their priority
/// moves ahead (a prefetch that a real request joined, say), at the back of its new priority.
/// Every operation costs O(groups + priority levels), whatever the queue's length.
final class ConcurrencyLimiter: Sendable {
    /// Jobs at once in one group.
    let perGroupLimit: Int
    /// Jobs at once in all.
    let totalLimit: Int

    private struct Queued {
        let group: String
        let priority: PrioritySignal
        let observation: Int
        let continuation: CheckedContinuation<Bool, Never>
        /// The level whose line holds this job's current place.
        var level: ImagePriority
    }

    /// The waiting lines of one group, one per priority level. A line may hold stale ids (of
    /// jobs that left or moved to another level); they are dropped when they reach its front.
    private struct GroupQueue {
        var lines = [CircularBuffer<Int>](repeating: [], count: ImagePriority.allCases.count)
        var count = 0

        /// The first job still waiting at the highest level, dropping stale ids on the way.
        mutating func front(in queued: [Int: Queued]) -> (level: ImagePriority, id: Int)? {
            for level in ImagePriority.allCases.reversed() {
                while let id = lines[level.rawValue].first {
                    if queued[id]?.level == level { return (level, id) }
                    lines[level.rawValue].removeFirst()
                }
            }
            return nil
        }
    }

    private struct State {
        var running: [String: Int] = [:]
        var runningTotal = 0
        var queued: [Int: Queued] = [:]
        var groups: [String: GroupQueue] = [:]
        var nextID = 0

        mutating func take(_ group: String) {
            runningTotal += 1
            running[group, default: 0] += 1
        }

        /// Takes a slot of `group` if one is free under both limits.
        mutating func takeIfFree(_ group: String, perGroupLimit: Int, totalLimit: Int) -> Bool {
            guard runningTotal < totalLimit, running[group, default: 0] < perGroupLimit else { return false }
            take(group)
            return true
        }

        mutating func dequeue(_ id: Int) -> Queued? {
            guard let entry = queued.removeValue(forKey: id) else { return nil }
            entry.priority.removeObserver(entry.observation)
            groups[entry.group]?.count -= 1
            if groups[entry.group]?.count == 0 { groups[entry.group] = nil }
            return entry
        }
    }

    private let state = Locked(State())

    /// A limiter; limits below 1 count as 1.
    init(perGroupLimit: Int, totalLimit: Int) {
        self.perGroupLimit = max(1, perGroupLimit)
        self.totalLimit = max(1, totalLimit)
    }

    /// Jobs waiting for a slot.
    var queuedCount: Int { state.withLock { $0.queued.count } }

    /// Jobs running now.
    var runningCount: Int { state.withLock { $0.runningTotal } }

    /// Runs `body` once a slot for `group` is free, and frees it after.
    /// - Throws: `.cancelled` when the task is cancelled while waiting, or what `body` throws.
    func withSlot<T>(
        group: String, priority: PrioritySignal,
        _ body: () async throws(ImagePipelineError) -> T
    ) async throws(ImagePipelineError) -> T {
        try await acquire(group: group, priority: priority)
        defer { release(group: group) }
        return try await body()
    }

    private func acquire(group: String, priority: PrioritySignal) async throws(ImagePipelineError) {
        let id = state.withLock { state -> Int? in
            if state.takeIfFree(group, perGroupLimit: perGroupLimit, totalLimit: totalLimit) { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    // Slots may have freed since the first look, with no one queued to take them:
                    // waiting now would wait for a release that may never come.
                    if state.takeIfFree(group, perGroupLimit: perGroupLimit, totalLimit: totalLimit) { return true }
                    let observation = priority.addObserver { [weak self] in self?.follow(id) }
                    let level = priority.value
                    state.queued[id] = Queued(group: group, priority: priority, observation: observation, continuation: continuation, level: level)
                    state.groups[group, default: GroupQueue()].lines[level.rawValue].append(id)
                    state.groups[group]?.count += 1
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            state.withLock { $0.dequeue(id) }?.continuation.resume(returning: false)
        }
        // A slot granted just as the task was cancelled is used: the body sees the cancellation.
        guard granted else { throw .cancelled }
    }

    /// Moves queued job `id` to the back of its new priority's line.
    private func follow(_ id: Int) {
        state.withLock { state in
            guard let entry = state.queued[id] else { return }
            let level = entry.priority.value
            guard level != entry.level else { return }
            state.queued[id]?.level = level
            state.groups[entry.group]?.lines[level.rawValue].append(id)
        }
    }

    private func release(group: String) {
        let granted = state.withLock { state -> [Queued] in
            state.runningTotal -= 1
            state.running[group, default: 1] -= 1
            if state.running[group] == 0 { state.running[group] = nil }
            var granted: [Queued] = []
            while state.runningTotal < totalLimit, let next = nextToRun(&state), let entry = state.dequeue(next) {
                state.take(entry.group)
                granted.append(entry)
            }
            return granted
        }
        for entry in granted { entry.continuation.resume(returning: true) }
    }

    /// The waiting job to run next: the highest priority among groups below their limit, the
    /// earliest queued among equals.
    private func nextToRun(_ state: inout State) -> Int? {
        var best: (level: ImagePriority, id: Int)?
        for group in Array(state.groups.keys) where state.running[group, default: 0] < perGroupLimit {
            guard let front = state.groups[group]?.front(in: state.queued) else { continue }
            if let current = best, current.level > front.level || (current.level == front.level && current.id < front.id) { continue }
            best = front
        }
        return best?.id
    }
}

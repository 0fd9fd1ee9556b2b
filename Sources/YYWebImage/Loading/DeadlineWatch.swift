import YYDispatch

/// Calls an action when its deadline passes, for any number of deadlines with one sleeping task.
///
/// Each download registers its whole-request deadline, and one watcher task sleeps until the
/// earliest: no task, timer or cancellation per download (what that saves on a cold load of
/// small images is in `Benchmarks/README.md`). Deadlines taken as "now + a fixed timeout"
/// arrive in order, so they never wake the watcher early; an earlier one replaces the watcher.
///
/// The deadlines wait in a ``DeadlineQueue`` (a heap: O(log n) per deadline, O(1) removal).
package final class DeadlineWatch: Sendable {
    /// A registration; pass it to ``remove(_:)`` once the work is done.
    package struct Token: Sendable {
        fileprivate let id: DeadlineQueue<@Sendable () -> Void>.ID
    }

    private struct Watcher {
        let generation: Int
        var wakesAt: ContinuousClock.Instant
        var task: Task<Void, Never>?
    }

    private struct State {
        var actions = DeadlineQueue<@Sendable () -> Void>()
        var generation = 0
        /// The running watcher; `nil` when nothing is registered.
        var watcher: Watcher?
    }

    private let state = Locked(State())

    /// A watch with nothing registered (its watcher task starts with the first deadline).
    package init() {}

    /// Registers `action` to be called (on the watcher's task) once `deadline` has passed,
    /// unless ``remove(_:)`` comes first. The action must be short: it holds up the others.
    package func add(_ deadline: ContinuousClock.Instant, action: @escaping @Sendable () -> Void) -> Token {
        let (token, newWatcher) = state.withLock { state -> (Token, (generation: Int, replaced: Task<Void, Never>?)?) in
            let token = Token(id: state.actions.insert(action, at: deadline))
            if let watcher = state.watcher, watcher.wakesAt <= deadline { return (token, nil) }
            let replaced = state.watcher?.task
            state.generation += 1
            state.watcher = Watcher(generation: state.generation, wakesAt: deadline)
            return (token, (state.generation, replaced))
        }
        if let newWatcher {
            newWatcher.replaced?.cancel()
            startWatcher(generation: newWatcher.generation, wakesAt: deadline)
        }
        return token
    }

    /// Unregisters the action of `token`; after this returns it is not called (unless it was
    /// already running).
    package func remove(_ token: Token) {
        // The action, and what it captured, is released after the lock.
        _ = state.withLock { $0.actions.remove(token.id) }
    }

    /// `body`'s result, run in a task of its own that this watch cancels once `deadline` passes
    /// (as it is cancelled when the caller is); `expired` says the deadline cancelled it.
    package func run<T: Sendable>(
        until deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async throws -> T
    ) async -> (result: Result<T, any Error>, expired: Bool) {
        let work = Task { try await body() }
        let expired = Locked(false)
        let token = add(deadline) {
            expired.withLock { $0 = true }
            work.cancel()
        }
        defer { remove(token) }
        let result = await withTaskCancellationHandler {
            await work.result
        } onCancel: {
            work.cancel()
        }
        return (result, expired.withLock { $0 })
    }

    /// Entries in the heap, removed ones included (for tests of the rebuild).
    var storedCount: Int { state.withLock { $0.actions.storedCount } }

    private func startWatcher(generation: Int, wakesAt: ContinuousClock.Instant) {
        // Detached and weak: the watcher belongs to no request, and a pipeline that goes away
        // takes its watch with it (the watcher then ends when it wakes).
        let task = Task.detached(priority: .high) { [weak self] in
            var wakesAt = wakesAt
            while true {
                try? await Task.sleep(until: wakesAt, clock: .continuous)
                guard let self, let next = self.fireDue(generation: generation) else { return }
                wakesAt = next
            }
        }
        state.withLock { state in
            if state.watcher?.generation == generation { state.watcher?.task = task }
        }
    }

    /// Calls the actions whose deadlines have passed; returns when to wake next, or `nil` when
    /// this watcher is done (nothing is left, or a newer watcher replaced it).
    private func fireDue(generation: Int) -> ContinuousClock.Instant? {
        let (due, next) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
            guard state.watcher?.generation == generation else { return ([], nil) }
            let now = ContinuousClock.now
            var due: [@Sendable () -> Void] = []
            while let action = state.actions.popFirst(dueBy: now) { due.append(action) }
            guard let next = state.actions.earliestDeadline() else {
                state.watcher = nil
                return (due, nil)
            }
            state.watcher?.wakesAt = next
            return (due, next)
        }
        for action in due { action() }
        return next
    }
}

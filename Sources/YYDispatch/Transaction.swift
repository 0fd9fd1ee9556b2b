/// Coalesces work to the end of the current turn of a serial queue or actor (YYTransaction).
///
/// Commit a key with an action as often as you like; the action runs once, in a work item
/// scheduled after the current one, however many times its key was committed in between. Keys
/// run in the order of their first commit; the first commit's action is the one that runs.
/// Commits made while the actions run belong to the next turn. Usable from any thread.
///
/// ```swift
/// let layout = Transaction(on: .main)
/// for change in changes { model.apply(change); layout.commit("relayout") { view.layOut() } }
/// // view.layOut() runs once, after the loop's work item.
/// layout.commit(target: view, action: "redraw") { $0.redraw() }   // YYTransaction's (target, selector)
/// ```
public final class Transaction: Sendable {
    /// Where the actions run.
    public let target: SerialTarget

    private struct State {
        var order: [Key] = []
        var actions: [Key: @Sendable () -> Void] = [:]
        var isScheduled = false
    }

    private let state = Locked(State())

    /// A transaction whose actions run on `target` (the main queue by default).
    public init(on target: SerialTarget = .main) {
        self.target = target
    }

    /// Commits `action` under `key`; it runs once at the end of this turn of ``target``.
    public func commit(_ key: some Hashable & Sendable, action: @escaping @Sendable () -> Void) {
        let schedules = state.withLock { state -> Bool in
            let key = Key(key)
            if state.actions[key] == nil {
                state.order.append(key)
                state.actions[key] = action
            }
            defer { state.isScheduled = true }
            return !state.isScheduled
        }
        if schedules { target.schedule { [self] in flush() } }
    }

    /// Commits `action` for `target` under the name `action`: the (target, selector) pair of
    /// YYTransaction. The target is kept alive until the action ran.
    public func commit<Target: AnyObject & Sendable>(target object: Target, action name: String,
                                                     _ action: @escaping @Sendable (Target) -> Void) {
        commit(TargetAction(target: ObjectIdentifier(object), action: name)) { action(object) }
    }

    /// Keys committed and not run yet.
    public var pendingCount: Int { state.withLock { $0.order.count } }

    private func flush() {
        let batch = state.withLock { state -> [@Sendable () -> Void] in
            defer { state = State() }
            return state.order.compactMap { state.actions[$0] }
        }
        for action in batch { action() }
    }
}

/// A committed key, type-erased.
private struct Key: Hashable, @unchecked Sendable {
    // @unchecked: built only from `Hashable & Sendable` values (see `Transaction.commit`).
    let base: AnyHashable
    init(_ key: some Hashable & Sendable) { base = AnyHashable(key) }
}

/// The key of a (target, action) commit.
private struct TargetAction: Hashable, Sendable {
    let target: ObjectIdentifier
    let action: String
}

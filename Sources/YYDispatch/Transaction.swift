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

    /// Commits `action` under `key`; it runs once at the end of this turn of ``target``. Keys are
    /// the same when they are of one type and equal (`1` and `UInt8(1)` are two keys).
    public func commit(_ key: some Hashable & Sendable, action: @escaping @Sendable () -> Void) {
        let key = Key(key)
        let schedules = state.withLock { state -> Bool in
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
    public func commit<Target: AnyObject & Sendable>(
        target object: Target, action name: String,
        _ action: @escaping @Sendable (Target) -> Void
    ) {
        commit(TargetAction(target: ObjectIdentifier(object), action: name)) { action(object) }
    }

    /// Keys committed and not run yet.
    public var pendingCount: Int { state.withLock { $0.order.count } }

    private func flush() {
        // The whole turn's state is taken out and released after the lock: the keys are the
        // caller's values, and one that is an object may run its `deinit` (which may commit).
        let turn = state.withLock { state -> State in
            defer { state = State() }
            return state
        }
        for key in turn.order { turn.actions[key]?() }
    }
}

/// A committed key, type-erased.
///
/// Not `AnyHashable`, whose making looks for a `Hashable` superclass and for integer types to
/// convert: that was most of a commit's cost (Benchmarks/README.md, "Transaction.commit"). The hash
/// comes from the key's own type, once, outside the lock; equality is asked of the key's type only
/// when the hashes match. Keys of different types are different keys, even `1` and `UInt8(1)`.
private struct Key: Hashable, @unchecked Sendable {
    // @unchecked: built only from `Hashable & Sendable` values (see `Transaction.commit`).
    let base: any Hashable
    /// `base`'s own hash value.
    let baseHash: Int

    init<Base: Hashable & Sendable>(_ key: Base) {
        base = key
        baseHash = key.hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(baseHash) }

    static func == (lhs: Key, rhs: Key) -> Bool {
        lhs.baseHash == rhs.baseHash && lhs.base.isEqual(to: rhs.base)
    }
}

extension Hashable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: any Hashable) -> Bool { (other as? Self) == self }
}

/// The key of a (target, action) commit.
private struct TargetAction: Hashable, Sendable {
    let target: ObjectIdentifier
    let action: String
}

import YYDispatch

/// Orders the jobs of one key by when they began, so that what an older job found does not
/// replace what a newer one found when the older finishes last.
///
/// Several jobs of one key can run at once: a `.refresh` request beside a plain one, a request
/// that ignores the disk beside one that does not, two URLs that share a cache key. A job
/// applies its result only if no job of its key that began later has applied one, so a plain
/// load that found an older original (on disk, in the shared tier, or from a slower download)
/// and finishes after a refresh does not put the older image back in memory, and a download
/// that fails after a newer one succeeded does not make the URL fail for
/// ``ImagePipeline/Configuration/failedURLMemory``.
final class StartOrder: Sendable {
    /// One job's place in the order, from ``begin(_:)``.
    struct Ticket: Sendable {
        let key: String
        let sequence: UInt64
    }

    private struct State {
        var nextSequence: UInt64 = 0
        /// The keys with jobs under way: how many, and the sequence of the newest that applied.
        /// A key leaves with its last job, so the table holds no more than the jobs in flight.
        var keys: [String: (jobs: Int, newestApplied: UInt64?)] = [:]
    }

    private let state = Locked(State())

    /// Gives a job of `key` its place: after every job begun before it. End it with ``end(_:)``.
    func begin(_ key: String) -> Ticket {
        state.withLock { state in
            defer { state.nextSequence += 1 }
            state.keys[key, default: (0, nil)].jobs += 1
            return Ticket(key: key, sequence: state.nextSequence)
        }
    }

    /// Runs `apply` unless a job of the ticket's key that began later has applied its result;
    /// returns whether it ran.
    ///
    /// `apply` runs under this type's lock, so that two results cannot land in the other order
    /// than they were allowed in. It must be short and synchronous, and must not call code that
    /// could wait on this lock (a cache's `setValue`, which releases what it evicts after its own
    /// lock, is fine).
    @discardableResult
    func applyIfLatest(_ ticket: Ticket, _ apply: () -> Void) -> Bool {
        state.withLock { state in
            guard let entry = state.keys[ticket.key] else {
                assertionFailure("a result applied with a ticket that ended")
                return false
            }
            if let newest = entry.newestApplied, newest > ticket.sequence { return false }
            state.keys[ticket.key]!.newestApplied = ticket.sequence
            apply()
            return true
        }
    }

    /// Whether a job of the ticket's key that began later has applied its result.
    func isOvertaken(_ ticket: Ticket) -> Bool {
        state.withLock { state in
            guard let newest = state.keys[ticket.key]?.newestApplied else { return false }
            return newest > ticket.sequence
        }
    }

    /// Ends the job of `ticket`.
    func end(_ ticket: Ticket) {
        state.withLock { state in
            guard let entry = state.keys[ticket.key] else { return assertionFailure("end of a ticket that ended") }
            state.keys[ticket.key] = entry.jobs > 1 ? (entry.jobs - 1, entry.newestApplied) : nil
        }
    }

    /// How many keys have jobs under way (for tests: none once all ended).
    var keysInFlight: Int { state.withLock { $0.keys.count } }
}

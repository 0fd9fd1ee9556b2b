import YYCache
import YYDispatch
import YYImage

/// Keeps an image job that began earlier from replacing, in the memory cache, the image of one
/// that began later.
///
/// Several image jobs of one memory key can run at once: a `.refresh` request beside a plain one,
/// a request that ignores the disk beside one that does not, two URLs that share a cache key.
/// Each stored its image when it finished, so a plain load that found an older original (on disk,
/// in the shared tier, or from a slower download) and finished after a refresh put the older
/// image back in memory, where it stayed until evicted. A job's image is now stored only if no
/// job of its key that began later has stored one.
final class MemoryStoreOrder: Sendable {
    /// One job's place in the order, from ``begin(_:)``.
    struct Ticket: Sendable {
        let key: String
        let sequence: UInt64
    }

    private struct State {
        var nextSequence: UInt64 = 0
        /// The keys with jobs under way: how many, and the sequence of the newest that stored.
        /// A key leaves with its last job, so the table holds no more than the jobs in flight.
        var keys: [String: (jobs: Int, newestStored: UInt64?)] = [:]
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

    /// Stores `image` in `cache` under the ticket's key unless a job of that key that began later
    /// has stored its own; returns whether it stored.
    ///
    /// The cache's `setValue` runs under this type's lock, so that two stores cannot land in the
    /// other order than they were allowed in. It calls no code of ours nor of the caller's (the
    /// cache releases what it evicts after its own lock), so nothing here can wait on this lock.
    @discardableResult
    func store(_ image: Image, cost: Int, in cache: MemoryCache<String, Image>, for ticket: Ticket) -> Bool {
        state.withLock { state in
            guard let entry = state.keys[ticket.key] else {
                assertionFailure("store with a ticket that ended")
                return false
            }
            if let newest = entry.newestStored, newest > ticket.sequence { return false }
            state.keys[ticket.key]!.newestStored = ticket.sequence
            cache.setValue(image, forKey: ticket.key, cost: cost)
            return true
        }
    }

    /// Ends the job of `ticket`.
    func end(_ ticket: Ticket) {
        state.withLock { state in
            guard let entry = state.keys[ticket.key] else { return assertionFailure("end of a ticket that ended") }
            state.keys[ticket.key] = entry.jobs > 1 ? (entry.jobs - 1, entry.newestStored) : nil
        }
    }

    /// How many keys have jobs under way (for tests: none once all ended).
    var keysInFlight: Int { state.withLock { $0.keys.count } }
}

import YYDispatch

/// Guarantees that of the jobs of one key, the result of the one that began last wins: a job
/// commits its result only if no job of its key that began later has committed one.
///
/// Several jobs of one key can run at once: a `.refresh` request beside a plain one, a request
/// that ignores the disk beside one that does not, two URLs that share a cache key. So a plain
/// load that found an older original (on disk, in the shared tier, or from a slower download)
/// and finishes after a refresh does not put the older image back in memory, nor an older
/// original back on disk; and a download that fails after a newer one succeeded does not make
/// the URL fail for ``ImagePipeline/Configuration/failedURLMemory``.
///
/// Two calls: ``run(_:_:)`` gives a job its place for as long as its body runs, and the body
/// commits through ``Job/commitIfNewest(_:)``.
///
/// ```swift
/// try await memoryWrites.run(key) { job in
///     let image = try await decode()
///     job.commitIfNewest { memoryCache.setValue(image, forKey: key) }
/// }
/// ```
final class NewestJobWins: Sendable {
    /// One job's place in the order, valid inside its ``NewestJobWins/run(_:_:)``.
    struct Job: Sendable {
        /// The key the job works on.
        let key: String
        fileprivate let sequence: UInt64
        fileprivate let order: NewestJobWins

        /// Runs `commit` unless a job of the key that began later has committed; returns
        /// whether it ran.
        ///
        /// `commit` runs under the order's lock, so that two results cannot land in the other
        /// order than they were allowed in. It must be short and synchronous, and must not call
        /// code that could wait on this lock (a cache's `setValue`, which releases what it
        /// evicts after its own lock, is fine).
        @discardableResult
        func commitIfNewest(_ commit: () -> Void) -> Bool {
            order.commit(self, commit)
        }

        /// Whether a job of the key that began later has committed (after this one did, say:
        /// its result may then have landed first, and this one's over it).
        var isOvertaken: Bool { order.isOvertaken(self) }
    }

    private struct State {
        var nextSequence: UInt64 = 0
        /// The keys with jobs under way: how many, and the sequence of the newest that committed.
        /// A key leaves with its last job, so the table holds no more than the jobs in flight.
        var keys: [String: (jobs: Int, newestCommitted: UInt64?)] = [:]
    }

    private let state = Locked(State())

    /// Runs `body` as a job of `key`, placed after every job of any key begun before it.
    func run<T, E: Error>(_ key: String, _ body: (Job) async throws(E) -> T) async throws(E) -> T {
        let job = begin(key)
        defer { end(job) }
        return try await body(job)
    }

    /// How many keys have jobs under way (none once all ended).
    var keysInFlight: Int { state.withLock { $0.keys.count } }

    private func begin(_ key: String) -> Job {
        state.withLock { state in
            defer { state.nextSequence += 1 }
            state.keys[key, default: (0, nil)].jobs += 1
            return Job(key: key, sequence: state.nextSequence, order: self)
        }
    }

    private func commit(_ job: Job, _ commit: () -> Void) -> Bool {
        state.withLock { state in
            guard let entry = state.keys[job.key] else {
                assertionFailure("a result committed by a job that ended")
                return false
            }
            if let newest = entry.newestCommitted, newest > job.sequence { return false }
            state.keys[job.key]!.newestCommitted = job.sequence
            commit()
            return true
        }
    }

    private func isOvertaken(_ job: Job) -> Bool {
        state.withLock { state in
            guard let newest = state.keys[job.key]?.newestCommitted else { return false }
            return newest > job.sequence
        }
    }

    private func end(_ job: Job) {
        state.withLock { state in
            guard let entry = state.keys[job.key] else { return assertionFailure("end of a job that ended") }
            state.keys[job.key] = entry.jobs > 1 ? (entry.jobs - 1, entry.newestCommitted) : nil
        }
    }
}

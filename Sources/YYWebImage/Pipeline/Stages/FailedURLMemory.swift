import YYDispatch

/// The data keys whose loads failed lately, which then fail again at once until their time is
/// up (``ImagePipeline/Configuration/failedURLMemory``; nothing is remembered when it is `nil`).
///
/// Outcomes count in the order their jobs began (``NewestJobWins``): an older job's failure
/// does not outlast a newer one's success, nor its success clear a newer one's failure.
struct FailedURLMemory: Sendable {
    /// How long a failure is remembered; `nil` remembers none.
    let duration: Duration?
    let table = Locked(FailedURLTable())
    /// The data jobs under way, so that their outcomes count in the order they began.
    let outcomes = NewestJobWins()

    /// Throws the failure remembered for `key`, if one is.
    func check(_ key: String) throws(ImagePipelineError) {
        guard duration != nil else { return }
        let now = ContinuousClock.now
        if let remembered = table.withLock({ $0.failure(forKey: key, now: now) }) { throw remembered }
    }

    /// Runs `load`, the data job of `key`, and remembers its failure (or forgets an older one on
    /// success), unless a job of the key that began later has had its outcome counted.
    func recordingOutcome<T>(ofKey key: String, _ load: () async throws(ImagePipelineError) -> T) async throws(ImagePipelineError) -> T {
        guard let duration else { return try await load() }
        return try await outcomes.run(key) { job throws(ImagePipelineError) in
            do throws(ImagePipelineError) {
                let value = try await load()
                job.commitIfNewest { table.withLock { $0.forget(key) } }
                return value
            } catch {
                if error != .cancelled {
                    let now = ContinuousClock.now
                    job.commitIfNewest { table.withLock { $0.remember(error, forKey: key, until: now + duration, now: now) } }
                }
                throw error
            }
        }
    }
}

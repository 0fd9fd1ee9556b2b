/// The URLs that failed lately, which fail again at once until their time is up
/// (``ImagePipeline/Configuration/failedURLMemory``).
///
/// An entry that has expired is dropped when its key is looked up, and every expired one when the
/// table has doubled since it was last swept, so that URLs that fail once and are never asked
/// for again (a server fetching what its users give) are not kept for as long as it runs.
struct FailedURLTable {
    private var entries: [String: (error: ImagePipelineError, until: ContinuousClock.Instant)] = [:]
    /// The size at which the next sweep runs: twice what the last one left, and at least 1,024.
    private var sweepsAt = 1024

    /// How many entries are kept, expired ones included.
    var count: Int { entries.count }

    /// The error `key` failed with, if that failure is remembered until later than `now`.
    mutating func failure(forKey key: String, now: ContinuousClock.Instant) -> ImagePipelineError? {
        guard let entry = entries[key] else { return nil }
        guard entry.until > now else {
            entries[key] = nil
            return nil
        }
        return entry.error
    }

    /// Forgets a failure of `key`.
    mutating func forget(_ key: String) {
        entries[key] = nil
    }

    /// Remembers that `key` failed with `error` until `until`.
    mutating func remember(_ error: ImagePipelineError, forKey key: String, until: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        entries[key] = (error, until)
        guard entries.count >= sweepsAt else { return }
        entries = entries.filter { $0.value.until > now }
        sweepsAt = max(1024, 2 * entries.count)
    }
}

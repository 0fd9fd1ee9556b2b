import Foundation
import Logging
import YYCache
import YYDispatch

/// The originals the pipeline keeps: on disk, then in the shared tier, each with its HTTP record.
/// Their failures are logged and counted, and make a miss or a skipped write, never a failed load.
///
/// Jobs of one key may overlap (a refresh beside a plain load). Two rules keep the levels from
/// going back to an older original, whichever job finishes last:
/// - a job stores or removes only if no job of the key that began later has (``NewestJobWins``),
///   and takes its original away again when a newer job's write came while its own ran;
/// - a copy from the shared tier goes onto the disk only if no write of the key overlapped the
///   lookup that found it (``WriteOverlapTracker``), and goes again if one came while it did.
struct OriginalStore: Sendable {
    /// Which levels a request reads and writes.
    struct Levels: Sendable {
        var disk: Bool
        var shared: Bool

        /// The levels `request` uses: `.ignoreDiskCache` skips both, the shared tier being a
        /// cache of originals like the disk.
        init(_ request: ImageRequest, _ configuration: ImagePipeline.Configuration) {
            let usesCaches = !request.options.contains(.ignoreDiskCache)
            disk = usesCaches && configuration.diskCache != nil
            shared = usesCaches && configuration.sharedTier != nil
        }

        /// Whether the request uses any level.
        var any: Bool { disk || shared }
    }

    /// An original found in a level.
    struct Stored: Sendable {
        var data: Data
        var record: StoredResponse
        var source: ImageResponse.Source
    }

    let configuration: ImagePipeline.Configuration
    let counters: Locked<ImagePipeline.Statistics>
    /// The data jobs under way, so that an older one's original does not replace a newer one's.
    let jobs = NewestJobWins()
    /// The writes under way, so that a copy from the shared tier does not land over them.
    let overlaps = WriteOverlapTracker<String>()

    // MARK: Reading

    /// The original stored for `key`: from the disk, else from the shared tier (then copied onto
    /// the disk, fresh or not: a stale copy is revalidated like any other).
    func original(forKey key: String, levels: Levels) async -> Stored? {
        // From before the disk is read: a newer original another job stores after that read (and
        // perhaps before the tier's older copy comes back) must not be replaced by the copy.
        let lookup = levels.disk && levels.shared ? overlaps.beginLookup(key) : nil
        defer { lookup.map(overlaps.endLookup) }
        if levels.disk, let stored = await readDisk(key: key) { return stored }
        guard levels.shared, let shared = await readShared(key: key) else { return nil }
        if let lookup, overlaps.mayStore(lookup) {
            await writeDisk(shared.data, record: shared.record, key: key)
            // A write came while the copy was written, and may have landed first: the copy goes.
            if !overlaps.mayStore(lookup) { await removeDisk(key: key) }
        }
        return shared
    }

    // MARK: Writing, in the order the jobs began

    /// Writes an original to `levels` for `job`, unless a job of its key that began later has
    /// written or removed its own.
    func store(_ data: Data, record: StoredResponse, levels: Levels, job: NewestJobWins.Job) async {
        let overtaken = await inJobOrder(job, levels: levels) {
            if levels.disk { await writeDisk(data, record: record, key: job.key) }
            if levels.shared { await writeShared(data, record: record, key: job.key) }
        }
        // A newer job's original came while this one was written, and may have landed first:
        // this one may be over it. It goes, as a miss is safe and an older hit is not.
        if overtaken { await remove(key: job.key, levels: levels) }
    }

    /// Removes the original of `job`'s key from `levels`, unless a job of the key that began
    /// later has written or removed its own.
    func forget(levels: Levels, job: NewestJobWins.Job) async {
        _ = await inJobOrder(job, levels: levels) { await remove(key: job.key, levels: levels) }
    }

    /// Runs `body`, a write or removal of `job`'s key, if `job` is still the newest to commit
    /// one; returns whether a newer job's write began while `body` ran. A job that uses no level
    /// writes nothing and takes no place in the order, so it never keeps an older job from
    /// storing its original.
    private func inJobOrder(_ job: NewestJobWins.Job, levels: Levels, _ body: () async -> Void) async -> Bool {
        guard levels.any else { return false }
        // Marked for the lookups that may put a copy from the shared tier on the disk.
        var mark: WriteOverlapTracker<String>.Write?
        guard job.commitIfNewest({ mark = levels.disk ? overlaps.beginWrite(job.key) : nil }) else { return false }
        defer { mark.map(overlaps.endWrite) }
        await body()
        return job.isOvertaken
    }

    private func remove(key: String, levels: Levels) async {
        if levels.disk { await removeDisk(key: key) }
        if levels.shared { await removeShared(key: key) }
    }

    // MARK: Disk

    private func readDisk(key: String) async -> Stored? {
        guard let disk = configuration.diskCache else { return nil }
        counters.withLock { $0.diskReads += 1 }
        do {
            guard let entry = try await disk.entry(forKey: key) else { return nil }
            // An entry without our record (written by other code) is fresh until revalidated.
            let record =
                entry.extendedData.flatMap { try? JSONDecoder().decode(StoredResponse.self, from: $0) }
                ?? StoredResponse(
                    statusCode: 200, headers: [:], now: configuration.now(), defaultLifetime: configuration.defaultFreshness.inSeconds)
            return record.map { Stored(data: entry.data, record: $0, source: .disk) }
        } catch {
            configuration.logger.warning("disk cache read failed", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    private func writeDisk(_ data: Data, record: StoredResponse, key: String) async {
        guard let disk = configuration.diskCache else { return }
        do {
            try await disk.setData(data, forKey: key, extendedData: try JSONEncoder().encode(record))
            counters.withLock { $0.diskWrites += 1 }
            // The limit holds after every write, not only after the next sweep.
            if let limit = disk.costLimit, try await disk.totals().cost > limit {
                try await disk.trim(toCost: limit)
            }
        } catch {
            configuration.logger.warning("disk cache write failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    private func removeDisk(key: String) async {
        do {
            try await configuration.diskCache?.removeValue(forKey: key)
        } catch {
            configuration.logger.warning("disk cache remove failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    // MARK: Shared tier (keys in NFC, as the disk and Cache store them)

    private func readShared(key: String) async -> Stored? {
        guard let tier = configuration.sharedTier else { return nil }
        do {
            guard let entry = try await tier.entry(forKey: CanonicalKey.of(key)) else { return nil }
            guard let original = SharedOriginal.decode(entry.data) else {
                configuration.logger.warning("shared tier value is not an original; ignored", metadata: ["key": "\(key)"])
                return nil
            }
            counters.withLock { $0.sharedTierHits += 1 }
            return Stored(data: original.data, record: original.record, source: .sharedTier)
        } catch {
            counters.withLock { $0.sharedTierErrors += 1 }
            configuration.logger.warning("shared tier read failed", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    private func writeShared(_ data: Data, record: StoredResponse, key: String) async {
        guard let tier = configuration.sharedTier else { return }
        do {
            let value = try SharedOriginal.encode(data, record: record)
            if try await tier.setData(value, forKey: CanonicalKey.of(key), timeToLive: configuration.sharedTierTimeToLive) == .stored {
                counters.withLock { $0.sharedTierWrites += 1 }
            }
        } catch {
            counters.withLock { $0.sharedTierErrors += 1 }
            configuration.logger.warning("shared tier write failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    private func removeShared(key: String) async {
        do {
            try await configuration.sharedTier?.removeData(forKey: CanonicalKey.of(key))
        } catch {
            counters.withLock { $0.sharedTierErrors += 1 }
            configuration.logger.warning("shared tier remove failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}

import Foundation
import Logging
import YYCache
import YYDispatch
import YYImage

/// The data stage: the disk cache, then the shared tier, then the network (revalidating what the
/// caches have), then the caches again. One run per data job, shared by every request waiting on it.
extension ImagePipeline {
    typealias DataContext = TaskCoalescer<String, OriginalData, OriginalDataEvent>.Context
    typealias LocalWrite = WriteOverlapTracker<String>.Write

    func loadOriginal(_ request: ImageRequest, keys: RequestKeys, context: DataContext) async throws(ImagePipelineError) -> OriginalData {
        let usesDisk = !request.options.contains(.ignoreDiskCache) && configuration.diskCache != nil
        // The shared tier is a cache of originals like the disk: `.ignoreDiskCache` skips both.
        let usesShared = !request.options.contains(.ignoreDiskCache) && configuration.sharedTier != nil
        let order = originalStores.begin(keys.data)
        defer { originalStores.end(order) }
        // From before the disk is read: a newer original another job of this key stores after that
        // read (and perhaps before the tier's older copy comes back) must not be replaced by it.
        let lookup = usesDisk && usesShared ? originalWrites.beginLookup(keys.data) : nil
        var stored = usesDisk ? await readStored(key: keys.data) : nil
        var storedSource = ImageResponse.Source.disk
        if stored == nil, usesShared, let shared = await readShared(key: keys.data) {
            stored = shared
            storedSource = .sharedTier
            // Kept on this machine too, fresh or not (a stale copy is revalidated below), unless
            // a newer original was stored meanwhile. If one came while this copy was written, the
            // copy may have landed over it: it goes again, as a miss is safe and a stale hit is not.
            if let lookup, originalWrites.mayStore(lookup) {
                await write(shared.data, record: shared.record, key: keys.data)
                if !originalWrites.mayStore(lookup) { await remove(key: keys.data) }
            }
        }
        if let lookup { originalWrites.endLookup(lookup) }
        var storedDecoder: ImageDecoder?
        if let candidate = stored {
            do throws(ImageError) {
                storedDecoder = try ImageDecoder(data: candidate.data, options: configuration.decoderOptions)
            } catch .unknownFormat, .truncated, .malformed {
                // Damaged, or written under this key by other code: every load would fail to decode
                // it until it went stale. It goes, and the image is fetched as if it were not there.
                configuration.logger.warning(
                    "cached original is not an image; dropped", metadata: ["key": "\(keys.data)", "source": "\(storedSource)"])
                await forget(key: keys.data, disk: usesDisk, shared: usesShared, order: order)
                stored = nil
            } catch {
                // Over this pipeline's limits: so would the same bytes from the network be.
                throw .decodingFailed(error)
            }
        }
        if let stored, !request.options.contains(.refresh), !stored.record.needsRevalidation(at: configuration.now()) {
            counters.withLock { if storedSource == .disk { $0.diskHits += 1 } }
            return OriginalData(data: stored.data, source: storedSource, statusCode: nil, headers: [:], decoder: storedDecoder)
        }
        let response = try await download(request.url, validators: stored?.record.validatorHeaders ?? [:], context: context)
        let now = configuration.now()
        let lifetime = configuration.defaultFreshness.inSeconds
        if response.statusCode == 304 {
            // Only a conditional request may get a 304; without a stored entry there are no bytes to use.
            guard let stored else { throw .statusCode(304) }
            counters.withLock { $0.revalidations += 1 }
            if let record = stored.record.refreshed(by: response.headers, now: now, defaultLifetime: lifetime) {
                await store(stored.data, record: record, key: keys.data, disk: usesDisk, shared: usesShared, order: order)
            } else {
                await forget(key: keys.data, disk: usesDisk, shared: usesShared, order: order)
            }
            return OriginalData(data: stored.data, source: .revalidated, statusCode: 304, headers: response.headers, decoder: storedDecoder)
        }
        // Refuse what is no image (or a pixel bomb) before it reaches the disk.
        let decoder: ImageDecoder
        do throws(ImageError) {
            decoder = try ImageDecoder(data: response.body, options: configuration.decoderOptions)
        } catch {
            throw .decodingFailed(error)
        }
        if let record = StoredResponse(statusCode: response.statusCode, headers: response.headers, now: now, defaultLifetime: lifetime) {
            await store(response.body, record: record, key: keys.data, disk: usesDisk, shared: usesShared, order: order)
        } else if stored != nil {
            await forget(key: keys.data, disk: usesDisk, shared: usesShared, order: order)  // no-store now: the old copies go too
        }
        return OriginalData(data: response.body, source: .network, statusCode: response.statusCode, headers: response.headers, decoder: decoder)
    }

    /// Writes an original to the caches the request uses, unless a data job of its key that began
    /// later has written or removed its own (see ``inStartOrder(_:key:disk:shared:_:)``).
    private func store(_ data: Data, record: StoredResponse, key: String, disk: Bool, shared: Bool, order: StartOrder.Ticket) async {
        let overtaken = await inStartOrder(order, key: key, disk: disk, shared: shared) {
            if disk { await write(data, record: record, key: key) }
            if shared { await writeShared(data, record: record, key: key) }
        }
        // A newer job's original came while this one was written, and may have landed first:
        // this one may be over it. It goes, as a miss is safe and an older hit is not.
        if overtaken { await remove(key: key, disk: disk, shared: shared) }
    }

    /// Removes an original from the caches the request uses, unless a data job of its key that
    /// began later has written or removed its own.
    private func forget(key: String, disk: Bool, shared: Bool, order: StartOrder.Ticket) async {
        _ = await inStartOrder(order, key: key, disk: disk, shared: shared) { await remove(key: key, disk: disk, shared: shared) }
    }

    /// Runs `body`, a data job's write or removal of its key's original, only if no job of the key
    /// that began later has run its own, so that of two downloads of one image (a refresh beside
    /// a plain load) the older never replaces the newer, whichever finishes last. Returns whether
    /// a newer job's write began while `body` ran. A job that uses neither cache
    /// (`.ignoreDiskCache`) writes nothing, so it takes no place in the order and never keeps an
    /// older job from storing its original.
    private func inStartOrder(_ order: StartOrder.Ticket, key: String, disk: Bool, shared: Bool, _ body: () async -> Void) async -> Bool {
        guard disk || shared else { return false }
        // Marked for the lookups that may put a copy from the shared tier on the disk.
        var mark: LocalWrite?
        guard originalStores.applyIfLatest(order, { mark = disk ? originalWrites.beginWrite(key) : nil }) else { return false }
        defer { mark.map { originalWrites.endWrite($0) } }
        await body()
        return originalStores.isOvertaken(order)
    }

    private func remove(key: String, disk: Bool, shared: Bool) async {
        if disk { await remove(key: key) }
        if shared { await removeShared(key: key) }
    }

    // MARK: Disk (its failures are logged and make a miss or a skipped write, never a failed load)

    private func readStored(key: String) async -> (data: Data, record: StoredResponse)? {
        guard let disk = configuration.diskCache else { return nil }
        counters.withLock { $0.diskReads += 1 }
        do {
            guard let entry = try await disk.entry(forKey: key) else { return nil }
            // An entry without our record (written by other code) is fresh until revalidated.
            let record =
                entry.extendedData.flatMap { try? JSONDecoder().decode(StoredResponse.self, from: $0) }
                ?? StoredResponse(
                    statusCode: 200, headers: [:], now: configuration.now(), defaultLifetime: configuration.defaultFreshness.inSeconds)
            return record.map { (entry.data, $0) }
        } catch {
            configuration.logger.warning("disk cache read failed", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    private func write(_ data: Data, record: StoredResponse, key: String) async {
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

    private func remove(key: String) async {
        do {
            try await configuration.diskCache?.removeValue(forKey: key)
        } catch {
            configuration.logger.warning("disk cache remove failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}

extension ImagePipeline {
    // MARK: Shared tier (like the disk: its failures are logged, never a failed load; keys in NFC,
    // as the disk and Cache store them)

    private func readShared(key: String) async -> (data: Data, record: StoredResponse)? {
        guard let tier = configuration.sharedTier else { return nil }
        do {
            guard let entry = try await tier.entry(forKey: CanonicalKey.of(key)) else { return nil }
            guard let original = SharedOriginal.decode(entry.data) else {
                configuration.logger.warning("shared tier value is not an original; ignored", metadata: ["key": "\(key)"])
                return nil
            }
            counters.withLock { $0.sharedTierHits += 1 }
            return original
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

import Foundation
import YYCache
import YYDispatch
import YYImage

/// Results by their key in memory, on disk and in the shared tier, each computed once however
/// many identical requests arrive together: once per process, and once per cluster with a
/// shared tier (its fill lock). Off, every request computes its result.
struct ResultCache: Sendable {
    /// A result and the level that had it.
    struct Lookup: Sendable {
        var result: StoredResult
        var level: ServiceMetrics.CacheLevel
        /// Stage times, when this request computed it.
        var rendered: ImageRenderer.Output?
    }

    let cache: Cache<Data>?
    let timeToLive: Duration
    /// How long a replica's claim to compute a result lasts in the shared tier; past it, the
    /// others compute the result themselves.
    let fillLockTimeToLive: Duration

    /// The key of a result: source, normalised options and the format choice (never the
    /// signature, so re-signed URLs share results).
    static func key(source: String, options: ProcessingOptions, choice: OutputFormat.Choice) -> String {
        let name = source + "\n" + options.cacheKey + "\n" + choice.cacheKey
        return "result:v3:" + SHA256Digest.of(Array(name.utf8)).hexEncoded
    }

    /// The result for `key`, from a level or from `compute`.
    func result(forKey key: String, compute: @escaping @Sendable () async throws(ServiceError) -> ImageRenderer.Output)
        async throws(ServiceError) -> Lookup
    {
        guard let cache else { return try await computed(compute) }
        if let stored = cache.memoryCache.value(forKey: key), let result = StoredResult(stored: stored) {
            return Lookup(result: result, level: .memory)
        }
        let onDisk = (try? await cache.diskCache.contains(key)) ?? false
        let fill = ComputedOutput()
        let stored: Data
        do {
            stored = try await cache.value(forKey: key, expiresAfter: timeToLive, fillLockTimeToLive: fillLockTimeToLive) {
                let output = try await compute()
                let result = StoredResult(output)
                fill.set(Lookup(result: result, level: .computed, rendered: output))
                return result.stored
            }
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw .unavailable("the request was cancelled")
        } catch {
            throw ServiceError.internalError.logging("result cache: \(error)")
        }
        if let lookup = fill.get() { return lookup }
        guard let result = StoredResult(stored: stored) else {
            // Not a stored result (damaged, or written by something else under our key): it
            // goes, and this request computes its own.
            try? await cache.removeValue(forKey: key)
            return try await computed(compute)
        }
        // Neither computed here nor on disk: the shared tier had it, or (without one) another
        // request of this process computed it while this one waited.
        return Lookup(result: result, level: onDisk ? .disk : cache.sharedTier != nil ? .shared : .coalesced)
    }

    private func computed(_ compute: () async throws(ServiceError) -> ImageRenderer.Output) async throws(ServiceError) -> Lookup {
        let output = try await compute()
        return Lookup(result: StoredResult(output), level: .computed, rendered: output)
    }
}

/// What a fill computed, handed back to the request that ran it.
private final class ComputedOutput: Sendable {
    private let lookup = Locked<ResultCache.Lookup?>(nil)
    func set(_ value: ResultCache.Lookup) { lookup.withLock { $0 = value } }
    func get() -> ResultCache.Lookup? { lookup.withLock { $0 } }
}

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
        var data: Data
        var type: ImageType
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
        return "result:v1:" + HMACSHA256.digest(Array(name.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The result for `key`, from a level or from `compute`.
    func result(forKey key: String, compute: @escaping @Sendable () async throws -> ImageRenderer.Output) async throws -> Lookup {
        guard let cache else {
            let output = try await compute()
            return Lookup(data: output.data, type: output.type, level: .computed, rendered: output)
        }
        if let data = cache.memoryCache.value(forKey: key), let type = ImageType(sniffing: data) {
            return Lookup(data: data, type: type, level: .memory)
        }
        let onDisk = (try? await cache.diskCache.contains(key)) ?? false
        let computed = ComputedOutput()
        let data = try await cache.value(forKey: key, expiresAfter: timeToLive, fillLockTimeToLive: fillLockTimeToLive) {
            let output = try await compute()
            computed.set(output)
            return output.data
        }
        // Our own encoders wrote these bytes, so their format is always recognised.
        let type = ImageType(sniffing: data) ?? .png
        if let output = computed.get() { return Lookup(data: data, type: type, level: .computed, rendered: output) }
        // Neither computed here nor on disk: the shared tier had it, or (without one) another
        // request of this process computed it while this one waited.
        return Lookup(data: data, type: type, level: onDisk ? .disk : cache.sharedTier != nil ? .shared : .coalesced)
    }
}

/// The output a fill computed, handed back to the request that ran it.
private final class ComputedOutput: Sendable {
    private let output = Locked<ImageRenderer.Output?>(nil)
    func set(_ value: ImageRenderer.Output) { output.withLock { $0 = value } }
    func get() -> ImageRenderer.Output? { output.withLock { $0 } }
}

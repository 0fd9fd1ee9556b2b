import Foundation
import YYCache
import YYDispatch
import YYImage

/// The data stage: an image's original bytes from the disk, then the shared tier, then the
/// network (revalidating what the caches have), stored back in the caches. One run per data job,
/// shared by every request waiting on it; failures are remembered for
/// ``ImagePipeline/Configuration/failedURLMemory`` when it is set.
struct OriginalDataStage: Sendable {
    let configuration: ImagePipeline.Configuration
    let counters: Locked<ImagePipeline.Statistics>
    let store: OriginalStore
    let network: DownloadStage
    let failures: FailedURLMemory

    /// The data job of `request`: the stage, with its outcome remembered.
    func work(_ request: ImageRequest, keys: RequestKeys) -> TaskCoalescer<String, OriginalData, OriginalDataEvent>.Work {
        { context throws(ImagePipelineError) in
            try await failures.recordingOutcome(ofKey: keys.data) { () throws(ImagePipelineError) in
                try await load(request, keys: keys, context: context)
            }
        }
    }

    /// The original of `request`: cached and fresh, revalidated, or downloaded.
    func load(_ request: ImageRequest, keys: RequestKeys, context: DataJobContext) async throws(ImagePipelineError) -> OriginalData {
        let levels = OriginalStore.Levels(request, configuration)
        return try await store.jobs.run(keys.data) { job throws(ImagePipelineError) in
            var cached = await store.original(forKey: keys.data, levels: levels)
            let cachedDecoder = try await decoder(checking: &cached, levels: levels, job: job)
            if let cached, !request.options.contains(.refresh), !cached.record.needsRevalidation(at: configuration.now()) {
                counters.withLock { if cached.source == .disk { $0.diskHits += 1 } }
                return OriginalData(
                    data: cached.data, source: cached.source, statusCode: nil, headers: cached.record.validators, decoder: cachedDecoder)
            }
            let response = try await network.download(request.url, validators: cached?.record.validatorHeaders ?? [:], context: context)
            if response.statusCode == 304 {
                // Only a conditional request may get a 304; without a cached original there are no bytes to use.
                guard let cached else { throw .statusCode(304) }
                return await revalidated(cached, by: response, decoder: cachedDecoder, levels: levels, job: job)
            }
            return try await downloaded(response, replacing: cached != nil, levels: levels, job: job)
        }
    }

    /// A downloaded original, checked to be an image (no pixel bomb either) before it reaches
    /// the caches, then stored, or the cached copies dropped when the response forbids storing.
    private func downloaded(
        _ response: DownloadStage.DownloadedResponse, replacing hadCachedCopy: Bool, levels: OriginalStore.Levels,
        job: NewestJobWins.Job
    ) async throws(ImagePipelineError) -> OriginalData {
        let decoder = try Self.decoder(for: response.body, options: configuration.decoderOptions)
        let lifetime = configuration.defaultFreshness.inSeconds
        if let record = StoredResponse(
            statusCode: response.statusCode, headers: response.headers, now: configuration.now(), defaultLifetime: lifetime)
        {
            await store.store(response.body, record: record, levels: levels, job: job)
        } else if hadCachedCopy {
            await store.forget(levels: levels, job: job)  // no-store now: the old copies go too
        }
        return OriginalData(data: response.body, source: .network, statusCode: response.statusCode, headers: response.headers, decoder: decoder)
    }

    /// A decoder over the cached original, or `nil` with `cached` cleared when it is no image:
    /// damaged, or written under this key by other code, it would fail every load until it went
    /// stale, so it goes, and the image is fetched as if it were not there.
    private func decoder(checking cached: inout OriginalStore.Stored?, levels: OriginalStore.Levels, job: NewestJobWins.Job)
        async throws(ImagePipelineError) -> ImageDecoder?
    {
        guard let stored = cached else { return nil }
        do throws(ImageError) {
            return try ImageDecoder(data: stored.data, options: configuration.decoderOptions)
        } catch .unknownFormat, .truncated, .malformed {
            configuration.logger.warning(
                "cached original is not an image; dropped", metadata: ["key": "\(job.key)", "source": "\(stored.source)"])
            await store.forget(levels: levels, job: job)
            cached = nil
            return nil
        } catch {
            // Over this pipeline's limits: so would the same bytes from the network be.
            throw .decodingFailed(error)
        }
    }

    /// The cached original after a 304: its record refreshed by the response (or dropped when
    /// the response forbids storing it).
    private func revalidated(
        _ cached: OriginalStore.Stored, by response: DownloadStage.DownloadedResponse, decoder: ImageDecoder?,
        levels: OriginalStore.Levels, job: NewestJobWins.Job
    ) async -> OriginalData {
        counters.withLock { $0.revalidations += 1 }
        let lifetime = configuration.defaultFreshness.inSeconds
        if let record = cached.record.refreshed(by: response.headers, now: configuration.now(), defaultLifetime: lifetime) {
            await store.store(cached.data, record: record, levels: levels, job: job)
        } else {
            await store.forget(levels: levels, job: job)
        }
        return OriginalData(data: cached.data, source: .revalidated, statusCode: 304, headers: response.headers, decoder: decoder)
    }

    /// A decoder over downloaded bytes, or the error that refuses them.
    private static func decoder(for data: Data, options: ImageDecoder.Options) throws(ImagePipelineError) -> ImageDecoder {
        do throws(ImageError) {
            return try ImageDecoder(data: data, options: options)
        } catch {
            throw .decodingFailed(error)
        }
    }
}

public import Foundation
import YYDispatch

/// Loads images ahead of need, a few at a time and at low priority (YYWebImage had none; this is
/// Nuke's and SDWebImage's prefetcher).
///
/// A prefetch shares its download with any real request for the same image: when one arrives,
/// the shared work runs at the real request's priority from then on.
///
/// Releasing the prefetcher stops its prefetches, as ``stopPrefetching()`` does (Nuke's does the
/// same): a screen that prefetched a long list and went away leaves nothing downloading for it.
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images end up.
    public enum Destination: Sendable {
        /// The original bytes in the disk cache; nothing is decoded.
        case diskCache
        /// Decoded in the memory cache (and the bytes on disk, if the pipeline has a disk cache).
        case memoryCache
    }

    /// The pipeline that loads.
    public let pipeline: ImagePipeline
    /// Where images end up.
    public let destination: Destination
    /// The priority of every prefetch.
    public let priority: ImagePriority

    private let slots: ConcurrencyLimiter
    private let state = Locked(State())

    private struct State {
        var running: [URL: Prefetch] = [:]
        var nextID = 0
    }

    /// A prefetch under way. The id tells it from a later prefetch of the same URL, which a
    /// prefetch that was stopped and is still ending must leave in place.
    private struct Prefetch {
        let id: Int
        let task: Task<Void, Never>
    }

    /// A prefetcher running at most `maxConcurrentRequests` loads at once (default 2).
    public init(pipeline: ImagePipeline, destination: Destination = .memoryCache, maxConcurrentRequests: Int = 2, priority: ImagePriority = .low) {
        self.pipeline = pipeline
        self.destination = destination
        self.priority = priority
        self.slots = ConcurrencyLimiter(perGroupLimit: maxConcurrentRequests, totalLimit: maxConcurrentRequests)
    }

    /// Starts prefetching each URL not already being prefetched. Failures are ignored (the
    /// pipeline logs cache failures; a later real request reports its own error).
    public func startPrefetching(with urls: [URL]) {
        for url in urls {
            state.withLock { state in
                guard state.running[url] == nil else { return }
                state.nextID += 1
                let id = state.nextID
                // The task holds the prefetcher weakly, so that releasing it stops the prefetches
                // (its deinit cancels them) rather than their keeping it alive until they end.
                let task = Task { [weak self, slots, pipeline, destination, priority] in
                    do {
                        try await slots.withSlot(group: "", priority: PrioritySignal(priority)) { () throws(ImagePipelineError) in
                            // Done while the slot is held, so that a prefetch of the same URL
                            // waiting for it starts with nothing of this one left to run.
                            defer { self?.finished(url, id: id) }
                            try await Self.prefetch(url, pipeline: pipeline, destination: destination, priority: priority)
                        }
                    } catch {
                        self?.finished(url, id: id)  // it failed, or was stopped before it had a slot
                    }
                }
                state.running[url] = Prefetch(id: id, task: task)
            }
        }
    }

    /// Forgets the prefetch `id` of `url`, unless a later one took its place: a stopped
    /// prefetch that ends after the URL was prefetched again leaves the new one's entry, which
    /// stays counted and can be stopped.
    private func finished(_ url: URL, id: Int) {
        state.withLock { state in
            if state.running[url]?.id == id { state.running[url] = nil }
        }
    }

    deinit {
        stopPrefetching()
    }

    /// Cancels the prefetches of these URLs; a real request sharing the work keeps it running.
    public func stopPrefetching(with urls: [URL]) {
        let tasks = state.withLock { state in urls.compactMap { state.running.removeValue(forKey: $0)?.task } }
        for task in tasks { task.cancel() }
    }

    /// Cancels every prefetch.
    public func stopPrefetching() {
        let tasks = state.withLock { state in
            defer { state.running.removeAll() }
            return state.running.values.map(\.task)
        }
        for task in tasks { task.cancel() }
    }

    /// Prefetches started and not yet finished or stopped.
    public var pendingCount: Int { state.withLock { $0.running.count } }

    /// Returns when every prefetch started so far has finished or was stopped.
    public func waitUntilDone() async {
        while let task = state.withLock({ $0.running.values.first?.task }) { await task.value }
    }

    private static func prefetch(
        _ url: URL, pipeline: ImagePipeline, destination: Destination,
        priority: ImagePriority
    ) async throws(ImagePipelineError) {
        let request = ImageRequest(url: url, priority: priority)
        switch destination {
        case .memoryCache:
            _ = try await pipeline.load(request, priority: PrioritySignal(priority), wantsPreviews: false, onEvent: nil)
        case .diskCache:
            try await pipeline.loadOriginalData(request, priority: PrioritySignal(priority))
        }
    }
}

public import Foundation
import YYDispatch

/// Loads images ahead of need, a few at a time and at low priority (YYWebImage had none; this is
/// Nuke's and SDWebImage's prefetcher).
///
/// A prefetch shares its download with any real request for the same image: when one arrives,
/// the shared work runs at the real request's priority from then on.
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
    private let running = Locked<[URL: Task<Void, Never>]>([:])

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
            running.withLock { running in
                guard running[url] == nil else { return }
                running[url] = Task { [self] in
                    try? await self.slots.withSlot(group: "", priority: PrioritySignal(self.priority)) { () throws(ImagePipelineError) in
                        try await self.prefetch(url)
                    }
                    _ = self.running.withLock { $0.removeValue(forKey: url) }
                }
            }
        }
    }

    /// Cancels the prefetches of these URLs; a real request sharing the work keeps it running.
    public func stopPrefetching(with urls: [URL]) {
        let tasks = running.withLock { running in urls.compactMap { running.removeValue(forKey: $0) } }
        for task in tasks { task.cancel() }
    }

    /// Cancels every prefetch.
    public func stopPrefetching() {
        let tasks = running.withLock { running in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Prefetches started and not yet finished or stopped.
    public var pendingCount: Int { running.withLock { $0.count } }

    /// Returns when every prefetch started so far has finished or was stopped.
    public func waitUntilDone() async {
        while let task = running.withLock({ $0.values.first }) { await task.value }
    }

    private func prefetch(_ url: URL) async throws(ImagePipelineError) {
        let request = ImageRequest(url: url, priority: priority)
        let priority = self.priority
        switch destination {
        case .memoryCache:
            _ = try await pipeline.load(request, priority: PrioritySignal(priority), wantsPreviews: false, onEvent: nil)
        case .diskCache:
            try await pipeline.loadOriginalData(request, priority: PrioritySignal(priority))
        }
    }
}

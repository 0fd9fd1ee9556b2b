extension ImagePipeline {
    /// Counts of what the stages did, since the pipeline was made.
    public struct Statistics: Sendable, Equatable, Codable, CustomStringConvertible {
        /// Images served by the memory cache.
        public var memoryHits = 0
        /// Disk cache lookups (one per shared data job that may use the disk).
        public var diskReads = 0
        /// Lookups that found fresh bytes on disk.
        public var diskHits = 0
        /// HTTP requests sent (redirects and retries count each).
        public var networkRequests = 0
        /// Responses whose body was downloaded.
        public var downloads = 0
        /// 304 Not Modified answers that refreshed a stored entry.
        public var revalidations = 0
        /// Bodies downloaded, in bytes.
        public var downloadedBytes = 0
        /// Full decodes (one per shared image job).
        public var decodes = 0
        /// Progressive previews decoded.
        public var previews = 0
        /// Entries written to the disk cache.
        public var diskWrites = 0
        /// Originals found in the shared tier (fresh or kept for revalidation).
        public var sharedTierHits = 0
        /// Originals written to the shared tier.
        public var sharedTierWrites = 0
        /// Reads and writes of the shared tier that failed (each a miss or a skipped write).
        public var sharedTierErrors = 0

        /// One `name=value` per counter.
        public var description: String {
            "memoryHits=\(memoryHits) diskReads=\(diskReads) diskHits=\(diskHits) networkRequests=\(networkRequests) "
                + "downloads=\(downloads) revalidations=\(revalidations) downloadedBytes=\(downloadedBytes) "
                + "decodes=\(decodes) previews=\(previews) diskWrites=\(diskWrites) "
                + "sharedTierHits=\(sharedTierHits) sharedTierWrites=\(sharedTierWrites) sharedTierErrors=\(sharedTierErrors)"
        }
    }
}
